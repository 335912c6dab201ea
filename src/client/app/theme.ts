/** antd theme: primary blue and the 52 px header (docs/client.md, Time, locale and theme). */
import type { ThemeConfig } from 'antd';

export const HEADER_HEIGHT = 52;

export const theme: ThemeConfig = {
  token: { colorPrimary: '#1677ff' },
  components: { Layout: { headerHeight: HEADER_HEIGHT, headerPadding: '0 16px', headerBg: '#ffffff' } },
};
