/**
 * A task's parameters arrive as the JSON schema the server validates them with (POST
 * /sys/schedule/tasks), so new tasks need no client change. This reads the parts of that schema a
 * form needs: each property's title, kind, range, default and whether it is required.
 */
import type { DataOf } from '../../../../contract';

export type TaskInfo = DataOf<'/sys/schedule/tasks'>[number];

export interface TaskParamField {
  name: string;
  label: string;
  kind: 'integer' | 'number' | 'string';
  required: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** What the form starts with (the schema's default). */
  initial?: number | string;
}

interface PropertySchema {
  default?: unknown;
  type?: unknown;
  title?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  maxLength?: unknown;
}

interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: unknown;
}

const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);

function kindOf(type: unknown): TaskParamField['kind'] | null {
  return type === 'integer' || type === 'number' || type === 'string' ? type : null;
}

export function taskParamFields(task: TaskInfo | undefined): TaskParamField[] {
  const schema = (task?.params ?? {}) as ObjectSchema;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const kind = kindOf(property.type);
    if (!kind) return [];
    return [
      {
        name,
        kind,
        label: typeof property.title === 'string' ? property.title : name,
        required: required.includes(name),
        minimum: asNumber(property.minimum),
        maximum: asNumber(property.maximum),
        maxLength: asNumber(property.maxLength),
        initial: typeof property.default === 'number' || typeof property.default === 'string' ? property.default : undefined,
      },
    ];
  });
}
