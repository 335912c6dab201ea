/** The shell's state: the per-user `tabs` and `sidebar` slices, their local storage, and the tab bar's close commands. */
import { loggedIn } from '../../../src/client/features/session';
import { selectSidebarCollapsed, sidebarCollapsed, sidebarExpanded } from '../../../src/client/features/sys/layout/state/sidebar-slice';
import { NO_TABS, selectTabsOf, tabRefreshed, tabShown, tabsClosed, tabsPruned, tabsSlice, type TabsState } from '../../../src/client/features/sys/layout/state/tabs-slice';
import { planClose } from '../../../src/client/features/sys/layout/tabs/close-commands';
import { sessionEnded } from '../../../src/client/lib/session';
import { buildStore } from '../testing/store';

const reduce = tabsSlice.reducer;
const alice = (tabs: Partial<TabsState[string]>): TabsState => ({ alice: { ...NO_TABS, ...tabs } });

describe('tabs slice', () => {
  it('names its actions for DevTools', () => {
    expect([tabShown, tabsClosed, tabRefreshed, tabsPruned].map((action) => action.type)).toEqual(['tabs/shown', 'tabs/closed', 'tabs/refreshed', 'tabs/pruned']);
  });

  it('opens a tab once, after the others, and never lists the fixed tab', () => {
    let state: TabsState = {};
    for (const key of ['sys/panel', 'sys/user', 'hotel/device', 'sys/user']) state = reduce(state, tabShown({ userName: 'alice', key, fixedKey: 'sys/panel' }));
    expect(state.alice.open).toEqual(['sys/user', 'hotel/device']);
    expect(state.alice.mounted).toEqual(['sys/panel', 'sys/user', 'hotel/device']);
  });

  it('mounts a restored tab only when it is first shown', () => {
    const state = reduce(alice({ open: ['sys/user', 'hotel/device'] }), tabShown({ userName: 'alice', key: 'hotel/device', fixedKey: 'sys/panel' }));
    expect(state.alice.open).toEqual(['sys/user', 'hotel/device']);
    expect(state.alice.mounted).toEqual(['hotel/device']);
  });

  it('refreshing bumps the generation; a hidden tab also forgets its screen until shown again', () => {
    let state = alice({ open: ['a', 'b'], mounted: ['a', 'b'] });
    state = reduce(state, tabRefreshed({ userName: 'alice', key: 'a', active: true }));
    state = reduce(state, tabRefreshed({ userName: 'alice', key: 'b', active: false }));
    expect(state.alice).toEqual({ open: ['a', 'b'], mounted: ['a'], generation: { a: 1, b: 1 } });
  });

  it('prunes tabs the menu no longer grants', () => {
    const state = reduce(alice({ open: ['a', 'b', 'c'], mounted: ['a', 'c'] }), tabsPruned({ userName: 'alice', allowed: ['b', 'c'] }));
    expect(state.alice).toMatchObject({ open: ['b', 'c'], mounted: ['c'] });
  });

  it('closes tabs', () => {
    const state = reduce(alice({ open: ['a', 'b', 'c'], mounted: ['a', 'b'] }), tabsClosed({ userName: 'alice', keys: ['a', 'c'] }));
    expect(state.alice).toMatchObject({ open: ['b'], mounted: ['b'] });
  });

  it('keeps each user’s tabs apart: user A’s tabs are not user B’s', () => {
    let state: TabsState = {};
    state = reduce(state, tabShown({ userName: 'alice', key: 'sys/user', fixedKey: 'sys/panel' }));
    state = reduce(state, tabShown({ userName: 'bob', key: 'hotel/device', fixedKey: 'sys/panel' }));
    state = reduce(state, tabsClosed({ userName: 'bob', keys: ['sys/user'] }));
    expect(selectTabsOf({ tabs: state }, 'alice').open).toEqual(['sys/user']);
    expect(selectTabsOf({ tabs: state }, 'bob').open).toEqual(['hotel/device']);
    expect(selectTabsOf({ tabs: state }, 'carol')).toEqual(NO_TABS);
  });

  it('changes nothing without a user', () => {
    expect(reduce({}, tabShown({ userName: '', key: 'sys/user', fixedKey: 'sys/panel' }))).toEqual({});
  });

  it('forgets every user’s tabs when the session ends', () => {
    expect(reduce(alice({ open: ['sys/user'] }), sessionEnded({ reason: 'logout' }))).toEqual({});
  });
});

describe('sidebar slice', () => {
  it('collapses and expands per user, under names DevTools shows', () => {
    expect([sidebarCollapsed.type, sidebarExpanded.type]).toEqual(['sidebar/collapsed', 'sidebar/expanded']);
    const { store } = buildStore();
    store.dispatch(sidebarCollapsed({ userName: 'alice' }));
    expect(selectSidebarCollapsed(store.getState(), 'alice')).toBe(true);
    expect(selectSidebarCollapsed(store.getState(), 'bob')).toBe(false);
    store.dispatch(sidebarExpanded({ userName: 'alice' }));
    expect(selectSidebarCollapsed(store.getState(), 'alice')).toBe(false);
  });
});

describe('storage', () => {
  const show = (userName: string, key: string) => tabShown({ userName, key, fixedKey: 'sys/panel' });

  it('keeps each user’s tabs under their own key and drops the key when none is open', () => {
    const { store } = buildStore();
    store.dispatch(show('alice', 'sys/user'));
    store.dispatch(show('bob', 'hotel/device'));
    expect(JSON.parse(localStorage.getItem('shell.tabs.alice')!)).toEqual(['sys/user']);
    expect(JSON.parse(localStorage.getItem('shell.tabs.bob')!)).toEqual(['hotel/device']);
    expect(selectTabsOf(buildStore().store.getState(), 'alice').open).toEqual(['sys/user']);
    store.dispatch(tabsClosed({ userName: 'alice', keys: ['sys/user'] }));
    expect(localStorage.getItem('shell.tabs.alice')).toBeNull();
  });

  it('keeps a user’s collapsed sidebar until it is expanded', () => {
    const { store } = buildStore();
    store.dispatch(sidebarCollapsed({ userName: 'alice' }));
    expect(selectSidebarCollapsed(buildStore().store.getState(), 'alice')).toBe(true);
    expect(selectSidebarCollapsed(buildStore().store.getState(), 'bob')).toBe(false);
    store.dispatch(sidebarExpanded({ userName: 'alice' }));
    expect(localStorage.getItem('shell.sidebar.alice')).toBeNull();
  });

  it('stores nothing without a user and survives a damaged entry', () => {
    buildStore().store.dispatch(show('', 'sys/user'));
    expect(localStorage.length).toBe(0);
    localStorage.setItem('shell.tabs.alice', '{not json');
    localStorage.setItem('shell.tabs.bob', JSON.stringify(['sys/user', 7, null]));
    localStorage.setItem('shell.sidebar.alice', '"yes"');
    const state = buildStore().store.getState();
    expect(selectTabsOf(state, 'alice').open).toEqual([]);
    expect(selectTabsOf(state, 'bob').open).toEqual(['sys/user']);
    expect(selectSidebarCollapsed(state, 'alice')).toBe(false);
  });

  it('leaves other users’ tabs in storage when one signs in, and clears them all when a session ends', () => {
    localStorage.setItem('shell.tabs.admin', JSON.stringify(['sys/user']));
    const { store } = buildStore();
    store.dispatch(loggedIn({ token: 't', userName: 'frontdesk', nickName: '前台', menu: [] }));
    store.dispatch(show('frontdesk', 'sys/role'));
    expect(selectTabsOf(store.getState(), 'frontdesk').open).toEqual(['sys/role']);
    expect(JSON.parse(localStorage.getItem('shell.tabs.admin')!)).toEqual(['sys/user']);
    store.dispatch(sessionEnded({ reason: 'logout' }));
    expect(store.getState().tabs).toEqual({});
    expect(localStorage.length).toBe(0);
  });
});

describe('close commands', () => {
  const order = ['panel', 'a', 'b', 'c'];
  it.each([
    ['close', 'b', 'b', ['b'], 'c'],
    ['close', 'c', 'c', ['c'], 'b'],
    ['close', 'b', 'a', ['b'], undefined],
    ['close', 'panel', 'panel', [], undefined],
    ['closeOthers', 'b', 'a', ['a', 'c'], 'b'],
    ['closeOthers', 'panel', 'c', ['a', 'b', 'c'], 'panel'],
    ['closeRight', 'a', 'c', ['b', 'c'], 'a'],
    ['closeRight', 'a', 'panel', ['b', 'c'], undefined],
    ['closeAll', 'b', 'b', ['a', 'b', 'c'], 'panel'],
  ] as const)('%s on %s with %s active closes %j and goes to %s', (command, target, active, targets, next) => {
    expect(planClose(command, target, order, active)).toEqual({ targets, next });
  });
});
