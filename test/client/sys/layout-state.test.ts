import { initialTabs, planClose, readStoredTabs, storeTabs, tabsReducer, tabsStorageKey } from '../../../src/client/features/sys/layout/tabs/tabs-state';

describe('tab state', () => {
  it('opens a tab once, after the others, and never lists the fixed tab', () => {
    let state = initialTabs([]);
    state = tabsReducer(state, { type: 'shown', key: 'sys/panel', fixedKey: 'sys/panel' });
    state = tabsReducer(state, { type: 'shown', key: 'sys/user', fixedKey: 'sys/panel' });
    state = tabsReducer(state, { type: 'shown', key: 'hotel/device', fixedKey: 'sys/panel' });
    state = tabsReducer(state, { type: 'shown', key: 'sys/user', fixedKey: 'sys/panel' });
    expect(state.keys).toEqual(['sys/user', 'hotel/device']);
    expect(state.mounted).toEqual(['sys/panel', 'sys/user', 'hotel/device']);
  });

  it('mounts a restored tab only when it is first shown', () => {
    const state = tabsReducer(initialTabs(['sys/user', 'hotel/device']), { type: 'shown', key: 'hotel/device', fixedKey: 'sys/panel' });
    expect(state.keys).toEqual(['sys/user', 'hotel/device']);
    expect(state.mounted).toEqual(['hotel/device']);
  });

  it('refreshing bumps the generation; a hidden tab also forgets its screen until shown again', () => {
    let state = { keys: ['a', 'b'], mounted: ['a', 'b'], generation: {} };
    state = tabsReducer(state, { type: 'refreshed', key: 'a', active: true });
    state = tabsReducer(state, { type: 'refreshed', key: 'b', active: false });
    expect(state).toEqual({ keys: ['a', 'b'], mounted: ['a'], generation: { a: 1, b: 1 } });
  });

  it('prunes tabs the menu no longer grants', () => {
    const state = tabsReducer({ keys: ['a', 'b', 'c'], mounted: ['a', 'c'], generation: {} }, { type: 'pruned', allowed: new Set(['b', 'c']) });
    expect(state).toMatchObject({ keys: ['b', 'c'], mounted: ['c'] });
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

  describe('storage', () => {
    afterEach(() => localStorage.clear());

    it('keeps each user’s tabs under their own key and drops the key when none is open', () => {
      storeTabs('alice', ['sys/user']);
      storeTabs('bob', ['hotel/device']);
      expect(readStoredTabs('alice')).toEqual(['sys/user']);
      expect(readStoredTabs('bob')).toEqual(['hotel/device']);
      storeTabs('alice', []);
      expect(localStorage.getItem(tabsStorageKey('alice'))).toBeNull();
    });

    it('stores nothing without a user and survives a damaged entry', () => {
      storeTabs('', ['sys/user']);
      expect(localStorage.length).toBe(0);
      localStorage.setItem(tabsStorageKey('alice'), '{not json');
      expect(readStoredTabs('alice')).toEqual([]);
      localStorage.setItem(tabsStorageKey('alice'), JSON.stringify(['sys/user', 7, null]));
      expect(readStoredTabs('alice')).toEqual(['sys/user']);
    });
  });
});
