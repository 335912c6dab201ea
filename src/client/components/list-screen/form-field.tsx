/** One configured field as an antd Form.Item: the input that fits its kind, the rules, the hint. */
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { lazy, Suspense } from 'react';

import { useMenuDictContext } from './menu-dict';
import { rulesOf } from './rules';
import type { FieldConfig, SelectOption } from './types';

const DEFAULT_SWITCH_LABELS = ['启用', '禁用'] as const;

// The date picker is large: only screens with a time range filter load it.
const TimeRangeInput = lazy(() => import('./time-range-input'));

/** The props antd's Form.Item hands to its control. */
interface ControlProps {
  /** Links the label to the input (accessibility, and tests find inputs by label). */
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

interface FieldControlProps extends ControlProps {
  field: FieldConfig;
  /** Filters may be cleared; form selects keep a value. */
  clearable: boolean;
}

function OptionsSelect({ id, field, clearable, value, onChange, options }: FieldControlProps & { options: SelectOption[] }) {
  return (
    <Select
      id={id}
      value={value as SelectOption['value'] | undefined}
      onChange={onChange}
      options={options}
      allowClear={clearable}
      placeholder={field.placeholder ?? `请选择${field.label}`}
    />
  );
}

function HookOptionsSelect(props: FieldControlProps & { useOptions: () => SelectOption[] }) {
  return <OptionsSelect {...props} options={props.useOptions()} />;
}

/** With no dictionary entries (none bound, or the query failed) the raw value is typed instead. */
function DictSelect(props: FieldControlProps & { dictField: string }) {
  const options = useMenuDictContext().optionsOf(props.dictField, props.field.numeric);
  if (options.length > 0) return <OptionsSelect {...props} options={options} />;
  return <PlainInput {...props} />;
}

function PlainInput({ id, field, value, onChange }: FieldControlProps) {
  const placeholder = field.placeholder ?? `请输入${field.label}`;
  if (field.kind === 'number' || field.numeric) {
    return <InputNumber id={id} value={value as number | null | undefined} onChange={onChange} placeholder={placeholder} style={{ width: '100%' }} />;
  }
  return <Input id={id} value={value as string | undefined} onChange={(event) => onChange?.(event.target.value)} placeholder={placeholder} />;
}

function FlagSwitch({ id, field, value, onChange }: FieldControlProps) {
  const dict = useMenuDictContext();
  const [on, off] = field.switchLabels ?? DEFAULT_SWITCH_LABELS;
  const labelled = field.dict !== undefined && dict.optionsOf(field.dict).length > 0;
  return (
    <Switch
      id={id}
      checked={value === 1}
      onChange={(checked) => onChange?.(checked ? 1 : 0)}
      checkedChildren={labelled ? dict.labelOf(field.dict as string, 1) : on}
      unCheckedChildren={labelled ? dict.labelOf(field.dict as string, 0) : off}
    />
  );
}

function FieldControl(props: FieldControlProps) {
  const { id, field, value, onChange } = props;
  if (field.control) return <field.control id={id} value={value} onChange={onChange} />;
  const placeholder = field.placeholder ?? `请输入${field.label}`;
  switch (field.kind) {
    case 'select':
      if (field.useOptions) return <HookOptionsSelect {...props} useOptions={field.useOptions} />;
      if (field.dict) return <DictSelect {...props} dictField={field.dict} />;
      return <PlainInput {...props} />;
    case 'switch':
      return <FlagSwitch {...props} />;
    case 'password':
      return (
        <Input.Password id={id} value={value as string | undefined} onChange={(event) => onChange?.(event.target.value)} placeholder={placeholder} autoComplete="new-password" />
      );
    case 'textarea':
      return <Input.TextArea id={id} value={value as string | undefined} onChange={(event) => onChange?.(event.target.value)} placeholder={placeholder} rows={3} />;
    case 'timeRange':
      return (
        <Suspense fallback={<Input disabled placeholder={field.label} />}>
          <TimeRangeInput id={id} value={value} onChange={onChange} />
        </Suspense>
      );
    case 'number':
    case 'text':
      return <PlainInput {...props} />;
  }
}

interface FormFieldProps {
  field: FieldConfig;
  /** Filters carry no rules: an empty filter means "any". */
  asFilter?: boolean;
}

export function FormField({ field, asFilter = false }: FormFieldProps) {
  const { shownWhen } = field;
  if (shownWhen && !asFilter) {
    // The form drops unmounted fields (preserve={false}), so a hidden field never reaches the body.
    return (
      <Form.Item noStyle dependencies={[shownWhen.field]}>
        {({ getFieldValue }) => (shownWhen.values.includes(getFieldValue(shownWhen.field) as string | number) ? <FormField field={{ ...field, shownWhen: undefined }} /> : null)}
      </Form.Item>
    );
  }
  return (
    <Form.Item
      name={field.name}
      label={field.label}
      rules={asFilter ? undefined : rulesOf(field)}
      dependencies={asFilter ? undefined : field.dependencies}
      extra={asFilter ? undefined : field.extra}
    >
      <FieldControl field={field} clearable={asFilter || field.allowClear === true} />
    </Form.Item>
  );
}
