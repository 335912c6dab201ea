/**
 * The next five run times of the cron being typed, in Asia/Shanghai, as the server computes them
 * (the server's cron library is the one that will run the schedule). Asked once typing pauses; an
 * invalid expression shows the server's message in place of the times, an empty one what will show.
 */
import { Typography } from 'antd';
import { skipToken } from '@reduxjs/toolkit/query/react';

import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { isBusinessError } from '../../../lib/http/errors';
import { formatTime } from '../../../lib/time';
import { CRON_PREVIEW_RUNS } from '../../../../contract/constants';
import { usePreviewCronQuery } from './api';

const PREVIEW_DEBOUNCE_MS = 400;
/**
 * Room for the tallest answer (a heading and the run times, antd's 22 px lines, the list's 4 px
 * margin), kept from the first keystroke: answers arrive while the user reaches for 保存, and a
 * preview that grew from one line to six moved the dialog's buttons under the pointer.
 */
const LINE_PX = 22;
const LIST_MARGIN_PX = 4;
const RESERVED_HEIGHT = (CRON_PREVIEW_RUNS + 1) * LINE_PX + LIST_MARGIN_PX;

export function CronPreview({ cron }: { cron: string | undefined }) {
  return (
    <div data-testid="cron-preview" style={{ minHeight: RESERVED_HEIGHT }}>
      <PreviewAnswer cron={cron} />
    </div>
  );
}

function PreviewAnswer({ cron }: { cron: string | undefined }) {
  const settled = useDebouncedValue((cron ?? '').trim(), PREVIEW_DEBOUNCE_MS);
  const preview = usePreviewCronQuery(settled === '' ? skipToken : { cron: settled });

  // The room is kept anyway: it says what will fill it.
  if (settled === '') return <Typography.Text type="secondary">{`填写 Cron 表达式后，这里列出最近 ${CRON_PREVIEW_RUNS} 次执行时间（北京时间）`}</Typography.Text>;
  if (preview.isError) {
    const msg = isBusinessError(preview.error) ? preview.error.data.msg : 'Cron 表达式无法预览';
    return (
      <Typography.Text type="danger" role="alert">
        {msg}
      </Typography.Text>
    );
  }
  if (!preview.data) return <Typography.Text type="secondary">正在计算执行时间…</Typography.Text>;
  return (
    <div aria-label="最近执行时间">
      <Typography.Text type="secondary">最近 {preview.data.next.length} 次执行（北京时间）：</Typography.Text>
      <ol style={{ margin: `${LIST_MARGIN_PX}px 0 0`, paddingLeft: 20 }}>
        {preview.data.next.map((time) => (
          <li key={time}>{formatTime(time)}</li>
        ))}
      </ol>
    </div>
  );
}
