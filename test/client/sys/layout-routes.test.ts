import { selectShellRoutes } from '../../../src/client/features/sys/layout/routes';
import { menuKeysForPath } from '../../../src/client/features/sys/layout/menu-keys';
import type { AuthorityMenu } from '../../../src/client/lib/session';
import { adminMenu } from '../testing/handlers';

const menuEntry = (over: Partial<AuthorityMenu>): AuthorityMenu => ({
  id: 1,
  pid: null,
  name: '菜单',
  path: '/sys/user',
  element: 'sys/user',
  icon: '',
  sort: 1,
  state: 1,
  isAuth: 1,
  ...over,
});
const routesOf = (menu: AuthorityMenu[]) => selectShellRoutes({ session: { token: 't', userName: '', nickName: '', menu } });

describe('routes selector', () => {
  it('routes an entry in state 1 with a path and a view name', () => {
    expect(routesOf([menuEntry({})])).toEqual([{ key: 'sys/user', path: '/sys/user', view: 'sys/user' }]);
  });

  it.each([
    ['state 0', { state: 0 }],
    ['an empty path', { path: '' }],
    ['an empty element', { element: '' }],
    ['a blank element', { element: '  ' }],
  ])('does not route an entry with %s', (_label, over) => {
    expect(routesOf([menuEntry(over)])).toEqual([]);
  });

  it.each(['sys/missing', 'sys/layout', 'sys/verify'])('shows the unknown screen for the view name %s', (element) => {
    expect(routesOf([menuEntry({ path: '/x', element })])).toEqual([{ key: 'x', path: '/x', view: 'sys/unknown' }]);
  });

  it('routes the seeded children and not their parents', () => {
    expect(routesOf(adminMenu).map((route) => route.key)).toEqual(['sys/panel', 'sys/user', 'sys/role', 'hotel/device', 'hotel/advanced']);
  });

  it('returns the same routes for the same menu', () => {
    const state = { session: { token: 't', userName: '', nickName: '', menu: adminMenu } };
    expect(selectShellRoutes(state)).toBe(selectShellRoutes(state));
  });
});

describe('menu keys for a path', () => {
  it('selects a child and opens its parent', () => {
    expect(menuKeysForPath('/hotel/device', adminMenu, 'sys/panel')).toEqual({ selectedKeys: ['hotel/device'], openKeys: ['hotel'] });
  });

  it('selects a top-level item by its own path', () => {
    const menu = [...adminMenu, menuEntry({ id: 20, pid: null, path: '/about', element: 'sys/unknown' })];
    expect(menuKeysForPath('/about', menu, 'sys/panel')).toEqual({ selectedKeys: ['about'], openKeys: [] });
  });

  it('selects the index screen at /', () => {
    expect(menuKeysForPath('/', adminMenu, 'sys/panel')).toEqual({ selectedKeys: ['sys/panel'], openKeys: ['sys'] });
  });

  it('selects nothing for an unmatched path', () => {
    expect(menuKeysForPath('/nowhere', adminMenu, 'sys/panel')).toEqual({ selectedKeys: [], openKeys: [] });
  });
});
