/**
 * Renders antd without injecting its generated CSS into jsdom. jsdom's getComputedStyle walks
 * every stylesheet on each call, and antd's runtime styles made each visibility check (toBeVisible,
 * role queries) cost seconds. Components, markup, inline styles and behaviour are unchanged.
 */
import { createCache, StyleProvider } from '@ant-design/cssinjs';
import type { ReactNode } from 'react';

export function Unstyled({ children }: { children: ReactNode }) {
  return (
    <StyleProvider mock="server" cache={createCache()}>
      {children}
    </StyleProvider>
  );
}
