/**
 * The schedule dialog: fields and the body it sends. Tasks are data from the server, so the
 * fields are built from the task list: the parameter check and the body need each task's schema.
 */
import type { BodyOf } from '../../../../../contract';
import type { FieldConfig, FormValues } from '../../../../components/list-screen';
import type { ScheduleRow } from '../schedule-row';
import { CronInput } from './cron-input';
import { taskParamFields, type TaskInfo } from './task-params';
import { TaskParamsInput } from './task-params-input';
import { useTaskOptions } from './task-options';

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
