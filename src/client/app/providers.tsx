/** Everything every screen relies on: the store (rehydrated), antd in Chinese, the toast holder. */
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { Persistor } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';

import { useToastHolder } from '../lib/toast';
import type { AppStore } from './store';
import { theme } from './theme';

function ToastHolder() {
  return useToastHolder();
}

interface AppProvidersProps {
  store: AppStore;
  persistor: Persistor;
  children: ReactNode;
}

export function AppProviders({ store, persistor, children }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <ConfigProvider locale={zhCN} theme={theme}>
          <ToastHolder />
          {children}
        </ConfigProvider>
      </PersistGate>
    </Provider>
  );
}
