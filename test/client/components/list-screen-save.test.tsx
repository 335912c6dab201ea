/**
 * 保存 of the block's add dialog while the form is still validating: antd's validateFields then
 * rejects as out of date (another validation started while it ran), with no field refused. The
 * press must still save, once, with what the field holds by then.
 */
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { ListScreen, type FieldConfig } from '../../../src/client/components/list-screen';
import { useCreateRoleMutation, useInquireRolesQuery } from '../../../src/client/features/sys/role/api';
import { roleColumns } from '../../../src/client/features/sys/role/config';
import { roleHandlers } from '../testing/handlers/role';
import { button } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(90_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...roleHandlers(log));
});

/**
 * A check that answers only once released (as a check asking the server would): every validation
 * started before the release waits for it, every one after passes at once.
 */
function heldCheck() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { rule: { validator: () => released }, release, released };
}

function renderRoleScreen(nameField: FieldConfig) {
  renderScreen(() => (
    <ListScreen view="sys/role" noun="角色" useInquire={useInquireRolesQuery} columns={roleColumns} fields={[nameField]} create={{ useMutation: useCreateRoleMutation }} />
  ));
}

describe('list-screen 保存 while validating', () => {
  it('saves once with the current value when typing re-validated the field after 保存 was pressed', async () => {
    const check = heldCheck();
    renderRoleScreen({ name: 'name', label: '角色名称', kind: 'text', required: true, rules: [check.rule] });
    await user.click(await screen.findByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增角色');
    const name = within(dialog).getByLabelText('角色名称');
    await user.type(name, '夜审');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    // Typing on while 保存's validation waits makes that validation out of date.
    await user.type(name, '组');
    await act(async () => {
      check.release();
      await check.released;
    });

    await waitFor(() => expect(log.sent('/sys/role/creation')).toEqual([{ name: '夜审组' }]));
    await waitFor(() => expect(screen.queryByText('新增角色')).toBeNull());
    expect(log.sent('/sys/role/creation')).toHaveLength(1);
  });

  it('sends nothing while a field is refused, and shows why under it', async () => {
    renderRoleScreen({ name: 'name', label: '角色名称', kind: 'text', required: true });
    await user.click(await screen.findByRole('button', { name: button('新增') }));
    const dialog = await findDialog('新增角色');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    expect(await within(dialog).findByText('请输入角色名称')).toBeInTheDocument();
    expect(log.sent('/sys/role/creation')).toEqual([]);
  });
});
