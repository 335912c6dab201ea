/**
 * The chosen task's parameters as one form value (`params`), an input per property of the task's
 * schema. The task is read from the same form, so switching tasks switches the inputs.
 */
import { Flex, Form, Input, InputNumber, Typography } from 'antd';
import { useEffect } from 'react';

import type { CustomControlProps } from '../../../components/list-screen';
import { useTaskRegistry } from './api';
import { taskParamFields, type TaskParamField } from './task-params';

type Params = Record<string, unknown>;

function ParamInput({ field, value, onChange }: { field: TaskParamField; value: unknown; onChange: (value: unknown) => void }) {
  if (field.kind === 'string') {
    return <Input aria-label={field.label} maxLength={field.maxLength} value={value as string | undefined} onChange={(event) => onChange(event.target.value)} />;
  }
  return (
    <InputNumber
      aria-label={field.label}
      min={field.minimum}
      max={field.maximum}
      precision={field.kind === 'integer' ? 0 : undefined}
      value={value as number | null | undefined}
      onChange={onChange}
      style={{ width: 200 }}
    />
  );
}

export function TaskParamsInput({ id, value, onChange }: CustomControlProps) {
  const taskName = Form.useWatch<string | undefined>('task');
  const { data: tasks } = useTaskRegistry();
  const task = tasks?.find((candidate) => candidate.name === taskName);
  // A chosen task's parameters start at their defaults (e.g. 保留天数 30); values already set stay.
  useEffect(() => {
    const params = (value ?? {}) as Params;
    const missing = taskParamFields(task).filter((field) => field.initial !== undefined && params[field.name] === undefined);
    if (missing.length > 0) onChange?.({ ...params, ...Object.fromEntries(missing.map((field) => [field.name, field.initial])) });
  }, [task, value, onChange]);
  if (!task) return <Typography.Text type="secondary">请先选择任务类型</Typography.Text>;

  const params = (value ?? {}) as Params;
  const fields = taskParamFields(task);
  return (
    <Flex id={id} vertical gap={8}>
      <Typography.Text type="secondary">{task.description}</Typography.Text>
      {fields.length === 0 && <Typography.Text type="secondary">该任务没有参数</Typography.Text>}
      {fields.map((field) => (
        <Flex key={field.name} align="center" gap={8}>
          <span style={{ minWidth: 120 }}>
            {field.required && (
              <Typography.Text type="danger" aria-hidden="true" style={{ marginInlineEnd: 4 }}>
                *
              </Typography.Text>
            )}
            {field.label}
          </span>
          <ParamInput field={field} value={params[field.name]} onChange={(next) => onChange?.({ ...params, [field.name]: next })} />
        </Flex>
      ))}
    </Flex>
  );
}
