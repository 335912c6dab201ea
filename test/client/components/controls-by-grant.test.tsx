/**
 * Controls by grant, walked over every routable screen: with only its list granted a screen offers
 * no action at all (a new button without its resource fails here), with everything granted its
 * actions show, and every resource a screen asks about is one the product seeds under that screen's
 * menu, guarding an endpoint of the contract. With its own menu's resources and nothing else, a
 * screen and its add and edit dialogs read their pickers at its own paths and nothing of another menu.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';

import { contract, type DataOf } from '../../../src/contract';
import { PICKERS } from '../../../src/contract/pickers';
import { viewRegistry } from '../../../src/client/app/view-registry';
import { ROUTABLE_VIEWS, type ViewName } from '../../../src/client/config/views';
import { seedAreas } from '../../../src/server/services/builtins/catalogue';
import { advancedHandlers } from '../testing/handlers/advanced';
import { alarmHandlers } from '../testing/handlers/alarm';
import { deviceHandlers } from '../testing/handlers/device';
import { dictHandlers } from '../testing/handlers/dict';
import { locationHandlers } from '../testing/handlers/location';
import { menuHandlers } from '../testing/handlers/menu';
import { monitorHandlers } from '../testing/handlers/monitor';
import { orgHandlers } from '../testing/handlers/org';
import { messageHandlers, ruleHandlers } from '../testing/handlers/notify';
import { roleHandlers } from '../testing/handlers/role';
import { scheduleHandlers } from '../testing/handlers/schedule';
import { userHandlers } from '../testing/handlers/user';
import { renderScreen } from '../testing/render-screen';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

// Whole screens with antd take seconds each on a shared machine.
jest.setTimeout(300_000);

/** Every (view, resource type) a screen asked about, recorded through the grant hooks. */
const mockAsked: Array<[string, string]> = [];
jest.mock('../../../src/client/components/list-screen/menu-grants', () => {
  const actual = jest.requireActual<typeof import('../../../src/client/components/list-screen/menu-grants')>('../../../src/client/components/list-screen/menu-grants');
  const record = (view: string, types: string | readonly string[]) => {
    for (const type of typeof types === 'string' ? [types] : types) mockAsked.push([view, type]);
  };
  return {
    useGranted: (view: ViewName, types: string | readonly string[]) => {
      record(view, types);
      return actual.useGranted(view, types);
    },
    // The row actions' grants, asked of the whole page at once.
    useGrantLookup: () => {
      const lookup = actual.useGrantLookup();
      return (view: ViewName, types: string | readonly string[]) => {
        record(view, types);
        return lookup(view, types);
      };
    },
  };
});

/** Text each screen shows once its data arrived, from the msw fixtures. */
const SHOWN: Partial<Record<ViewName, string>> = {
  'sys/user': 'alice',
  'sys/role': '前台',
  'sys/org': '上海店',
  'sys/menu': '系统管理',
  'sys/dict': '门锁',
  'sys/schedule': '设备离线巡检',
  'hotel/device': 'LOCK-0101',
  'hotel/alarm': '101 门锁（LOCK-0101）',
  'hotel/advanced': '京东对接',
  'hotel/location': '主楼',
  'monitor/operation': 'zhangsan',
  'monitor/login': 'zhangsan',
  'monitor/online': 'frontdesk',
  'monitor/channel': '工程部钉钉群',
  'monitor/message': '设备离线：0808 门锁',
  'monitor/rule': '离线告警通知',
  'monitor/maintenance': '8F 装修',
};
/**
 * Buttons a screen may show with only its list granted: 通知记录's 详情 opens the listed row's own
 * fields (no endpoint of its own), so the list's resource guards it.
 */
const READ_WITH_LIST: Partial<Record<ViewName, string[]>> = { 'monitor/message': ['详情'] };
/** Every screen's list is its own 查询 resource (位置管理's too, since migration 034). */
const LIST = 'api_inquire';
/** Screens without an action of their own (a dashboard, the public API description, a fallback). */
const ACTIONLESS: ViewName[] = ['sys/panel', 'monitor/api-docs', 'sys/unknown'];

const seedMenus = seedAreas.flatMap((area) => area.children);
/** The API paths a resource guards: a role must hold it to call them. */
const guardedPaths = new Set(seedMenus.flatMap((menu) => menu.resources.flatMap((resource) => (resource.path ? [resource.path] : []))));

/** The API paths the screen calls from now until `stop`; `settled` waits for every answer. */
function askedPaths() {
  const paths: string[] = [];
  let pending = 0;
  const started = ({ request }: { request: Request }) => {
    pending += 1;
    paths.push(new URL(request.url).pathname.replace(/^\/api/, ''));
  };
  const ended = () => {
    pending -= 1;
  };
  server.events.on('request:start', started);
  server.events.on('request:end', ended);
  const settled = async () => {
    // A dialog's pickers ask once mounted: give their effects a moment, then wait for the answers.
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    await waitFor(() => expect(pending).toBe(0));
  };
  const stop = () => {
    server.events.removeListener('request:start', started);
    server.events.removeListener('request:end', ended);
  };
  return { paths, settled, stop };
}
/** The paths of the screens' pickers (src/contract/pickers.ts). */
const pickerPaths = new Set(Object.keys(PICKERS).map((key) => key.replace(/^GET /, '')));
const contractPaths = new Set(Object.keys(contract).map((key) => key.replace(/^GET /, '')));

/** Every seeded menu as the authority answers it, each holding `grantedOf(menu)`. */
function menuHolding(grantedOf: (element: string) => string[]): AuthorityMenu[] {
  return seedMenus.map((menu, index) => ({
    id: 100 + index,
    pid: null,
    name: menu.name,
    path: menu.path,
    element: menu.element,
    icon: menu.icon,
    sort: index,
    state: 1,
    isAuth: 1,
    granted: grantedOf(menu.element),
  }));
}

const user = userEvent.setup({ delay: null });

/** What to choose in an add dialog before every picker shows: 角色管理's unit tree is for 指定单位. */
const IN_ADD_DIALOG: Partial<Record<ViewName, (dialog: HTMLElement) => Promise<void>>> = {
  'sys/role': async (dialog) => {
    await user.click(within(dialog).getByLabelText('数据范围'));
    await user.click(await screen.findByTitle('指定单位'));
  },
};

/**
 * Opens the first add (新增…) or edit (编辑) dialog the screen offers, if any, lets its pickers ask
 * and closes it.
 */
async function visitDialog(view: ViewName, kind: '新增' | '编辑', settled: () => Promise<void>) {
  const opener = Array.from(document.querySelectorAll('button')).find((button) => {
    if (button.closest('.ant-modal-root, .ant-drawer')) return false;
    const label = (button.textContent ?? '').replace(/\s+/g, '');
    return kind === '新增' ? label.startsWith(kind) : label === kind;
  });
  if (!opener) return;
  await user.click(opener);
  const dialog = await screen.findByRole('dialog');
  if (kind === '新增') await IN_ADD_DIALOG[view]?.(dialog);
  await settled();
  await user.click(dialog.querySelector('.ant-modal-close') as HTMLElement);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/** Buttons a person could press outside the search form, the pager, tree rows' expanders and closed dialogs. */
function actionLabels(): string[] {
  return Array.from(document.querySelectorAll('button'))
    .filter((button) => !button.closest('form.ant-form-inline, .ant-pagination, .ant-modal-root, .ant-drawer, .ant-table-row-expand-icon'))
    .map((button) => (button.textContent ?? '').replace(/\s+/g, ''));
}

async function render(view: ViewName, menu: AuthorityMenu[]) {
  const Lazy = viewRegistry[view];
  renderScreen(
    () => (
      <Suspense fallback={null}>
        <Lazy />
      </Suspense>
    ),
    menu,
  );
  await screen.findAllByText(SHOWN[view] as string);
}

beforeEach(() => {
  const log = createRequestLog();
  server.use(
    ...userHandlers(log),
    ...roleHandlers(log),
    ...menuHandlers(log),
    ...dictHandlers(log),
    ...scheduleHandlers(log),
    ...deviceHandlers(log),
    ...alarmHandlers(log),
    ...advancedHandlers(log),
    ...locationHandlers(log),
    ...orgHandlers(log),
    ...monitorHandlers(log),
    // Last: the earlier handlers answer the requests these share (menu authority, dictionaries, locations).
    ...ruleHandlers(log),
    ...messageHandlers(log),
  );
  mockAsked.length = 0;
});

it('knows every routable screen', () => {
  expect([...Object.keys(SHOWN), ...ACTIONLESS].sort()).toEqual([...ROUTABLE_VIEWS].sort());
});

describe.each(Object.keys(SHOWN) as ViewName[])('%s', (view) => {
  const seeded = seedMenus.find((menu) => menu.element === view);

  it('offers no action and asks for nothing refused with only the list granted', async () => {
    const asked = askedPaths();
    try {
      await render(
        view,
        menuHolding((element) => (element === view ? [LIST] : [])),
      );
    } finally {
      asked.stop();
    }
    const allowed = new Set(READ_WITH_LIST[view] ?? []);
    expect(actionLabels().filter((label) => !allowed.has(label))).toEqual([]);
    // Every call guarded by a resource is one the list's resource covers: a screen asking another
    // screen's list (the user screen once asked 角色管理's for its role pickers) opened on 403.
    const own = seeded?.resources.find((resource) => resource.type === LIST)?.path;
    expect(own).toBeDefined();
    expect(asked.paths.filter((path) => guardedPaths.has(path) && path !== own)).toEqual([]);
  });

  it('reads its pickers at its own paths, and nothing of another menu, with its own menu granted alone', async () => {
    const ownResources = seeded?.resources ?? [];
    const asked = askedPaths();
    try {
      await render(
        view,
        menuHolding((element) => (element === view ? ownResources.map((resource) => resource.type) : [])),
      );
      await asked.settled();
      await visitDialog(view, '新增', asked.settled);
      await visitDialog(view, '编辑', asked.settled);
    } finally {
      asked.stop();
    }
    const own = new Set(ownResources.map((resource) => resource.path));
    // A picker reading another screen's resource (组织管理's tree, 查询位置, 通知渠道's list) is empty or refused.
    expect([...new Set(asked.paths.filter((path) => guardedPaths.has(path) && !own.has(path)))]).toEqual([]);
    // And each picker the screen holds is read: the form offers what the role may pick.
    const ownPickers = ownResources.flatMap((resource) => (resource.path && pickerPaths.has(resource.path) ? [resource.path] : []));
    expect(ownPickers.filter((path) => !asked.paths.includes(path))).toEqual([]);
  });

  it('offers its actions with everything granted, each guarded by a seeded resource of a contract endpoint', async () => {
    await render(
      view,
      menuHolding((element) => seedMenus.find((menu) => menu.element === element)?.resources.map((resource) => resource.type) ?? []),
    );
    expect(actionLabels().length).toBeGreaterThan(0);
    expect(seeded).toBeDefined();
    expect(mockAsked.length).toBeGreaterThan(0);
    for (const [askedView, type] of mockAsked) {
      const resource = seedMenus.find((menu) => menu.element === askedView)?.resources.find((candidate) => candidate.type === type);
      expect({ askedView, type, path: resource?.path }).toEqual({ askedView, type, path: expect.any(String) });
      expect(contractPaths.has(resource?.path as string)).toBe(true);
    }
  });
});
