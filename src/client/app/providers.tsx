/** Everything every screen relies on: the store, antd in Chinese, the toast holder. */
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import { useToastHolder } from '../lib/toast';
import type { AppStore } from './store';
import { theme } from './theme';

function ToastHolder() {
  return useToastHolder();
}

interface AppProvidersProps {
  store: AppStore;
  children: ReactNode;
}

export function AppProviders({ store, children }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <ConfigProvider locale={zhCN} theme={theme}>
        <ToastHolder />
        {children}
      </ConfigProvider>
    </Provider>
  );
}
