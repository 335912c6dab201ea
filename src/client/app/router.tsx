/**
 * The app's routes: the login, and behind the token guard the shell, which builds its child routes
 * from the authorised menu. The shell and its view registry are a lazy chunk so the login route stays small (docs/client.md, Bundle budget).
 */
import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';

import { BootSpinner } from '../components/boot-spinner';
import { VERIFY_ROUTE } from '../config/views';
import { RequireToken } from '../features/session';
import Verify from '../features/sys/verify';

const Shell = lazy(() => import(/* webpackChunkName: "shell" */ './shell'));

export const appRoutes: RouteObject[] = [
  { path: VERIFY_ROUTE, element: <Verify /> },
  {
    element: <RequireToken />,
    children: [
      {
        path: '*',
        element: (
          <Suspense fallback={<BootSpinner />}>
            <Shell />
          </Suspense>
        ),
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);
