/** The spinner shown while a lazily loaded part of the app arrives (SPEC 2: views show a spinner). */
import { Spin } from 'antd';

export function PageSpin() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}>
      <Spin size="large" />
    </div>
  );
}
