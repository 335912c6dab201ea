/** The spinner shown while a lazily loaded part of the app arrives (a screen shows a spinner while it loads: docs/client.md, Routes and views). */
import { Spin } from 'antd';

export function PageSpin() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}>
      <Spin size="large" />
    </div>
  );
}
