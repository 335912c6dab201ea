/**
 * What the schedule screen shows and edits: filters, columns, the dialog's fields and the body it
 * sends. Tasks are data from the server, so columns and fields are built from the task list: task
 * names show as the server's labels, and the parameter check and the body need each task's schema.
 */
import { Space, Tooltip, Typography } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import { useMenuDictContext, type ColumnConfig, type FieldConfig, type FormValues, type SortKeyOf } from '../../../components/list-screen';
import { RelativeTime } from '../../../components/relative-time';
import { CronInput } from './cron-input';
import { taskParamFields, type TaskInfo } from './task-params';
import { TaskParamsInput } from './task-params-input';
import { useTaskOptions } from './task-options';

/** One schedule as the list answers it; the drawer and dialogs take the row they were opened from. */
export type ScheduleRow = DataOf<'/sys/schedule/inquire'>['records'][number];

export const scheduleFilters: FieldConfig[] = [
  { name: 'name', label: '任务名称', kind: 'text', max: 32 },
  { name: 'task', label: '任务类型', kind: 'select', useOptions: useTaskOptions },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

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

type ScheduleCreation = BodyOf<'/sys/schedule/creation'>;
type ScheduleEdit = BodyOf<'/sys/schedule/edit'>;

const taskOf = (tasks: readonly TaskInfo[], name: unknown) => tasks.find((task) => task.name === name);

/** The required parameters of the chosen task that have no value yet. */
export function missingParams(task: TaskInfo | undefined, params: unknown): string[] {
  const values = (params ?? {}) as Record<string, unknown>;
  return taskParamFields(task)
    .filter((field) => field.required && (values[field.name] === undefined || values[field.name] === null || values[field.name] === ''))
    .map((field) => field.label);
}

export function scheduleFields(tasks: readonly TaskInfo[]): FieldConfig[] {
  return [
    { name: 'name', label: '任务名称', kind: 'text', required: true, max: 32 },
    { name: 'cron', label: 'Cron 表达式', kind: 'text', required: true, max: 100, control: CronInput },
    { name: 'task', label: '任务类型', kind: 'select', required: true, useOptions: useTaskOptions },
    {
      name: 'params',
      label: '任务参数',
      kind: 'text',
      control: TaskParamsInput,
      dependencies: ['task'],
      rules: [
        ({ getFieldValue }) => ({
          validator: (_rule, params: unknown) => {
            const missing = missingParams(taskOf(tasks, getFieldValue('task')), params);
            return missing.length > 0 ? Promise.reject(new Error(`请输入${missing.join('、')}`)) : Promise.resolve();
          },
        }),
      ],
    },
    { name: 'state', label: '状态', kind: 'switch', dict: 'state', switchLabels: ['运行中', '已暂停'] },
    { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
  ];
}

export const scheduleDefaults: FormValues = { params: {}, state: 1, remark: '' };

/** Only the chosen task's parameters travel: the server rejects any other key. */
function taskParams(tasks: readonly TaskInfo[], values: FormValues): Record<string, unknown> {
  const params = (values.params ?? {}) as Record<string, unknown>;
  const names = taskParamFields(taskOf(tasks, values.task)).map((field) => field.name);
  return Object.fromEntries(names.filter((name) => params[name] !== undefined && params[name] !== null).map((name) => [name, params[name]]));
}

function scheduleBody(tasks: readonly TaskInfo[], values: FormValues): ScheduleCreation {
  return {
    name: values.name as string,
    cron: (values.cron as string).trim(),
    task: values.task as string,
    params: taskParams(tasks, values),
    state: values.state as number,
    remark: (values.remark as string | undefined) ?? '',
  };
}

export function scheduleFromForm(tasks: readonly TaskInfo[]) {
  return {
    create: (values: FormValues) => scheduleBody(tasks, values),
    edit: (values: FormValues, row: ScheduleRow): ScheduleEdit => ({ ...scheduleBody(tasks, values), id: row.id, version: row.version }),
  };
}
