/**
 * The search form above a list: 查询 sends the filters, 重置 clears them and searches again. On a
 * phone the form folds to its first fields with 展开 / 收起, so the list is on the first screen.
 */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import { useEffect, useId, useState } from 'react';

import { usePhone } from '../../hooks/use-phone';

import { FormField } from './form-field';
import type { FieldConfig, FormValues, TimeRange } from './types';

/** A time range travels as its two params (`range`), each end only when set. */
export function toFilterValues(fields: FieldConfig[], values: FormValues): FormValues {
  const out: FormValues = { ...values };
  for (const field of fields) {
    if (field.kind !== 'timeRange' || !field.range) continue;
    const [start, end] = (values[field.name] as TimeRange | undefined) ?? [null, null];
    delete out[field.name];
    out[field.range[0]] = start;
    out[field.range[1]] = end;
  }
  return out;
}

/** The reverse of `toFilterValues`: the list's filters as the form holds them. */
export function toFormValues(fields: FieldConfig[], filters: FormValues): FormValues {
  const values: FormValues = { ...filters };
  for (const field of fields) {
    if (field.kind !== 'timeRange' || !field.range) continue;
    const [startKey, endKey] = field.range;
    const [start, end] = [filters[startKey] ?? null, filters[endKey] ?? null];
    delete values[startKey];
    delete values[endKey];
    if (start !== null || end !== null) values[field.name] = [start, end];
  }
  return values;
}

interface FilterFormProps {
  fields: FieldConfig[];
  onSearch: (values: FormValues) => void;
  /** The filters the list shows, as sent: the form shows them too (e.g. when the URL set them). */
  values?: FormValues;
}

/** Fields a folded form shows. */
const FOLDED_FIELDS = 2;

export function FilterForm({ fields, onSearch, values }: FilterFormProps) {
  const [form] = Form.useForm<FormValues>();
  const phone = usePhone();
  const foldable = phone && fields.length > FOLDED_FIELDS;
  // Open from the start when a folded field filters the list (e.g. from the URL): nothing set is hidden.
  const [unfolded, setUnfolded] = useState(() => fields.slice(FOLDED_FIELDS).some((field) => toFormValues(fields, values ?? {})[field.name] !== undefined));
  const folded = foldable && !unfolded;
  useEffect(() => {
    if (!values) return;
    form.resetFields();
    form.setFieldsValue(toFormValues(fields, values));
  }, [form, fields, values]);
  // Input ids are the form name plus the field name: a unique name keeps the filter form and both
  // dialogs (which share field names) from sharing ids, so each label points at its own input.
  const formName = useId();
  return (
    <Form form={form} name={formName} layout="inline" onFinish={(values) => onSearch(toFilterValues(fields, values))} style={{ rowGap: 12, marginBottom: 16 }}>
      {fields.map((field, index) => (
        // A folded field stays mounted: its value still travels with 查询.
        <div key={field.name} style={{ minWidth: 200, flex: phone ? '1 1 100%' : undefined, display: folded && index >= FOLDED_FIELDS ? 'none' : undefined }}>
          <FormField field={field} asFilter />
        </div>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onSearch({});
            }}
          >
            重置
          </Button>
          {foldable && (
            <Button type="link" onClick={() => setUnfolded(!unfolded)} aria-expanded={unfolded}>
              {unfolded ? '收起' : '展开'}
              {unfolded ? <UpOutlined /> : <DownOutlined />}
            </Button>
          )}
        </Space>
      </Form.Item>
    </Form>
  );
}
