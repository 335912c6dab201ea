/**
 * Client-side form rules in Chinese, mirroring the contract's simple limits so the user learns of a
 * mistake before the round trip; the server remains the real check.
 */
import type { FormRule } from 'antd';

import type { FieldConfig } from './types';

const CHOOSE_KINDS = new Set(['select', 'switch']);

const isBlank = (value: unknown): boolean => typeof value === 'string' && value !== '' && value.trim() === '';

export function rulesOf(field: FieldConfig): FormRule[] {
  const rules: FormRule[] = [];
  if (field.required) {
    const verb = CHOOSE_KINDS.has(field.kind) ? '请选择' : '请输入';
    rules.push({ required: true, message: `${verb}${field.label}` });
    // Blanks alone are no value: the contract refuses them, so the form does before sending.
    if (field.kind === 'text' || field.kind === 'textarea')
      rules.push({ validator: (_rule, value) => (isBlank(value) ? Promise.reject(new Error(`${verb}${field.label}`)) : Promise.resolve()) });
  }
  if (field.kind === 'number') {
    if (field.min !== undefined) rules.push({ type: 'number', min: field.min, message: `${field.label}不能小于 ${field.min}` });
    if (field.max !== undefined) rules.push({ type: 'number', max: field.max, message: `${field.label}不能大于 ${field.max}` });
  } else if (field.kind !== 'select' && field.kind !== 'switch') {
    if (field.min !== undefined) rules.push({ min: field.min, message: `${field.label}至少 ${field.min} 个字符` });
    if (field.max !== undefined) rules.push({ max: field.max, message: `${field.label}最多 ${field.max} 个字符` });
  }
  if (field.pattern) rules.push({ pattern: field.pattern.regex, message: field.pattern.message });
  if (field.rules) rules.push(...field.rules);
  return rules;
}
