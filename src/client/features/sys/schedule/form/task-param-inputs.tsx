/** The inputs of the chosen task's parameters, stored under the form's `params` object. */
import { Form, Input, InputNumber, Typography } from 'antd';

import { taskParamFields, type TaskInfo } from './task-params';

export function TaskParamInputs({ task }: { task: TaskInfo | undefined }) {
  if (!task) return null;
  const fields = taskParamFields(task);
  return (
    <>
      <Typography.Paragraph type="secondary">{task.description}</Typography.Paragraph>
      {fields.map((field) => (
        <Form.Item
          key={`${task.name}.${field.name}`}
          name={['params', field.name]}
          label={field.label}
          rules={[{ required: field.required, message: `请输入${field.label}` }]}
        >
          {field.kind === 'string' ? (
            <Input maxLength={field.maxLength} />
          ) : (
            <InputNumber
              min={field.minimum}
              max={field.maximum}
              precision={field.kind === 'integer' ? 0 : undefined}
              style={{ width: '100%' }}
            />
          )}
        </Form.Item>
      ))}
    </>
  );
}
