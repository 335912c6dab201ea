/** Render the real app (store, providers, routes) at a path, optionally signed in. */
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';

import type { DataOf } from '../../../src/contract';
import { AppProviders } from '../../../src/client/app/providers';
import { appRoutes } from '../../../src/client/app/router';
import { TOKEN } from './handlers';
import { buildStore } from './store';
import { Unstyled } from './unstyled';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

interface RenderAppOptions {
  path?: string;
  /** Store a session in local storage first, as a previous sign-in would have. */
  signedIn?: boolean;
}

/** A signed-in session in local storage; `menu` as a previous load would have kept it (none by default). */
export function storeSession(token = TOKEN, menu?: AuthorityMenu[]) {
  localStorage.setItem('token', token);
  localStorage.setItem('userName', 'admin');
  localStorage.setItem('nickName', '系统管理员');
  if (menu) localStorage.setItem('menu', JSON.stringify(menu));
}

/** Answers a promise, as rendering a lazily loaded route tree may one day need to wait. */
export function renderApp({ path = '/', signedIn = false }: RenderAppOptions = {}) {
  if (signedIn) storeSession();
  const { store, persistor } = buildStore();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <AppProviders store={store} persistor={persistor}>
      <RouterProvider router={router} />
    </AppProviders>,
    { wrapper: Unstyled },
  );
  return Promise.resolve({ ...view, store, persistor, router });
}

/** The sidebar's visible labels, in order. */
export const sidebarLabels = () => Array.from(document.querySelectorAll('.ant-menu-title-content')).map((node) => node.textContent);

export { screen };

/** The store and providers (toasts included) without routes, rehydrated, for base query tests. */
export async function renderProviders({ signedIn = false }: { signedIn?: boolean } = {}) {
  if (signedIn) storeSession();
  const { store, persistor } = buildStore();
  render(
    <AppProviders store={store} persistor={persistor}>
      <span>就绪</span>
    </AppProviders>,
    { wrapper: Unstyled },
  );
  await screen.findByText('就绪');
  return { store, persistor };
}
