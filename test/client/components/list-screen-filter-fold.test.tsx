/** The filter form folds on a phone: the first two fields, 展开 for the rest, 收起 to fold again. */
import HotelDeviceScreen from '../../../src/client/features/hotel/device';
import { adminMenu } from '../testing/handlers';
import { deviceHandlers } from '../testing/handlers/device';
import { button, filterField, findRow, user } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole screens with antd take seconds on a shared machine.
jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back as it was
const realMatchMedia = window.matchMedia;
const phoneWide = () => {
  window.matchMedia = (query: string) => ({ ...realMatchMedia(query), matches: query.includes('max-width: 767') });
};

beforeEach(() => server.use(...deviceHandlers(createRequestLog())));
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

const shown = (label: string) => filterField(label).closest('.ant-form-item')?.parentElement as HTMLElement;

describe('filter form on a phone', () => {
  it('shows the first two filters and unfolds the rest with 展开', async () => {
    phoneWide();
    renderScreen(HotelDeviceScreen, adminMenu);
    await findRow('LOCK-0101');
    expect(shown('设备名称')).toBeVisible();
    expect(shown('序列号')).toBeVisible();
    expect(shown('设备类型')).not.toBeVisible();
    expect(shown('在线')).not.toBeVisible();

    await user.click(screen.getByRole('button', { name: button('展开') }));
    expect(shown('设备类型')).toBeVisible();
    expect(shown('在线')).toBeVisible();
    await user.click(screen.getByRole('button', { name: button('收起') }));
    expect(shown('设备类型')).not.toBeVisible();
  });

  it('opens unfolded when a folded filter is set', async () => {
    phoneWide();
    renderScreen(HotelDeviceScreen, adminMenu, '/?online=1');
    await findRow('LOCK-0101');
    expect(shown('在线')).toBeVisible();
    expect(screen.getByRole('button', { name: button('收起') })).toBeInTheDocument();
  });

  it('does not fold on a wide screen', async () => {
    renderScreen(HotelDeviceScreen, adminMenu);
    await findRow('LOCK-0101');
    expect(shown('在线')).toBeVisible();
    expect(screen.queryByRole('button', { name: button('展开') })).toBeNull();
  });
});
