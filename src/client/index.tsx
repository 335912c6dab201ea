/** The browser entry: store, providers, router. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';

import './app/global.css';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { setupStore } from './app/store';

const { store, persistor } = setupStore();
const router = createAppRouter();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProviders store={store} persistor={persistor}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
