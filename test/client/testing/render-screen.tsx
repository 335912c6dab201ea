/**
 * One screen inside the real providers and store, signed in with the system menu, without the shell
 * and its routes (a memory router holds the URL the list filters live in): screen tests stay fast on
 * a shared CPU while every call still goes through the real base query to msw.
 */
import { configure, render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';

import type { DataOf } from '../../../src/contract';
import { AppProviders } from '../../../src/client/app/providers';
import { menuLoaded } from '../../../src/client/features/session';
import { sysMenu } from './handlers/sys-common';
import { storeSession } from './render';
import { buildStore } from './store';
import { Unstyled } from './unstyled';

// antd dialogs and lazy data take longer than the default second on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

/** `menu`: the authorised menu the screen finds its dictionary through (default: the system screens). */
/** `path`: the URL the screen opens at, e.g. with filters in its query. */
export function renderScreen(Screen: ComponentType, menu: DataOf<'GET /sys/menu/authority'> = sysMenu, path = '/') {
  storeSession();
  const { store, persistor } = buildStore();
  store.dispatch(menuLoaded(menu));
  render(
    <AppProviders store={store} persistor={persistor}>
      <MemoryRouter initialEntries={[path]}>
        <Screen />
      </MemoryRouter>
    </AppProviders>,
    { wrapper: Unstyled },
  );
  return { store };
}

/**
 * The open dialog with this title. antd's test build gives every dialog the same aria-labelledby,
 * so dialogs are found by their title text; the add and edit dialogs are rendered ahead, hidden.
 */
export async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  const dialog = heading.closest('.ant-modal') as HTMLElement;
  await waitFor(() => expect(dialog).toBeVisible());
  return dialog;
}

export { screen };
