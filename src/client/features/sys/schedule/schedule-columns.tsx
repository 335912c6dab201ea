/** The schedule list's columns; task names show as the labels the server gives its tasks. */
import { Space, Tooltip, Typography } from 'antd';

import type { BodyOf } from '../../../../contract';
import { useMenuDictContext, type ColumnConfig, type SortKeyOf } from '../../../components/list-screen';
import { RelativeTime } from '../../../components/relative-time';
import type { TaskInfo } from './form/task-params';
import type { ScheduleRow } from './schedule-row';

function LastRun({ schedule }: { schedule: ScheduleRow }) {
  const dict = useMenuDictContext();
  if (schedule.lastRunAt === null) return <Typography.Text type="secondary">尚未运行</Typography.Text>;
  const outcome = dict.labelOf('lastOutcome', schedule.lastOutcome);
  const failed = schedule.lastOutcome === 'failed';
  return (
    <Space size={6}>
      <RelativeTime value={schedule.lastRunAt} />
      <Tooltip title={schedule.lastMessage || undefined}>
        <Typography.Text type={failed ? 'danger' : undefined}>{outcome}</Typography.Text>
      </Tooltip>
    </Space>
  );
}

export function scheduleColumns(tasks: readonly TaskInfo[]): ColumnConfig<ScheduleRow, SortKeyOf<BodyOf<'/sys/schedule/inquire'>>>[] {
  const labelOfTask = (name: string) => tasks.find((task) => task.name === name)?.label ?? name;
  return [
    { title: '任务名称', dataIndex: 'name', sortKey: 'name' },
    { title: 'Cron 表达式', dataIndex: 'cron' },
    { title: '任务类型', dataIndex: 'task', sortKey: 'task', render: (name: string) => labelOfTask(name) },
    { title: '状态', dataIndex: 'state', dict: 'state', width: 90, sortKey: 'state' },
    { title: '下次执行', dataIndex: 'nextRunAt', width: 170, sortKey: 'nextRunAt', relativeTime: true },
    { title: '上次执行', key: 'lastRun', sortKey: 'lastRunAt', render: (_, schedule) => <LastRun schedule={schedule} /> },
  ];
}
