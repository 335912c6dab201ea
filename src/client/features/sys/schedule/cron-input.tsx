/** The cron expression, with the next run times it gives right under it. */
import { Input } from 'antd';

import type { CustomControlProps } from '../../../components/list-screen';
import { CronPreview } from './cron-preview';

export function CronInput({ id, value, onChange }: CustomControlProps) {
  const cron = value as string | undefined;
  return (
    <>
      <Input id={id} value={cron} onChange={(event) => onChange?.(event.target.value)} placeholder="例如 0 3 * * *（每天 3:00）" />
      <div style={{ marginTop: 8 }}>
        <CronPreview cron={cron} />
      </div>
    </>
  );
}
