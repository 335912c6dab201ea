/**
 * 运行日志: one schedule's runs, newest first as the server orders them, 20 per page. A manual run
 * (立即执行) invalidates the log, so an open drawer shows the new line at once.
 */
import { Drawer } from 'antd';
import { useMemo } from 'react';

import { ExportButton, PagedTable, useInquire, useMenuDict, type ColumnConfig, type MenuDict, type SortKeyOf } from '../../../components/list-screen';
import type { BodyOf, DataOf } from '../../../../contract';
import { formatTime } from '../../../lib/time';
import { useInquireScheduleLogQuery } from './api';
import type { ScheduleRow } from './config';

type LogRow = DataOf<'/sys/schedule/log'>['records'][number];

const LOG_EXPORT = { endpoint: '/sys/schedule/log/export', fileName: '运行日志.xlsx', resource: 'api_logExport' } as const;

// The server's run triggers (routes/sys/schedule/scheduler.ts); an unknown one shows as stored.
const TRIGGER_LABELS: Record<string, string> = { cron: '定时触发', manual: '手动执行' };

function logColumns(dict: MenuDict): ColumnConfig<LogRow, SortKeyOf<BodyOf<'/sys/schedule/log'>>>[] {
  return [
    { title: '开始时间', dataIndex: 'startedAt', width: 170, sortKey: 'startedAt', render: (time: number) => formatTime(time) },
    { title: '结束时间', dataIndex: 'endedAt', width: 170, sortKey: 'endedAt', render: (time: number | null) => formatTime(time) },
    { title: '触发方式', dataIndex: 'trigger', width: 100, render: (trigger: string) => TRIGGER_LABELS[trigger] ?? trigger },
    // A run's outcome shares the dictionary of the schedule's last outcome.
    { title: '结果', dataIndex: 'outcome', width: 80, sortKey: 'outcome', render: (outcome: string) => dict.labelOf('lastOutcome', outcome) },
    { title: '信息', dataIndex: 'message', ellipsis: true },
  ];
}

interface RunLogDrawerProps {
  schedule: ScheduleRow;
  onClose: () => void;
}

export function RunLogDrawer({ schedule, onClose }: RunLogDrawerProps) {
  const fixedParams = useMemo(() => ({ scheduleId: schedule.id }), [schedule.id]);
  const inquiry = useInquire<BodyOf<'/sys/schedule/log'>, LogRow>(useInquireScheduleLogQuery, { fixedParams });
  // The drawer sits outside the list's dictionary context; the same query is answered from cache.
  const dict = useMenuDict('sys/schedule');
  const columns = useMemo(() => logColumns(dict), [dict]);
  return (
    <Drawer open title={`运行日志：${schedule.name}`} size={860} onClose={onClose} extra={<ExportButton view="sys/schedule" config={LOG_EXPORT} inquiry={inquiry} />}>
      <PagedTable inquiry={inquiry} columns={columns} />
    </Drawer>
  );
}
