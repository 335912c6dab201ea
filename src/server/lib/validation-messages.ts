/**
 * Turns the first ajv error into one Chinese sentence naming the field and the rule. Field names
 * come from the schema `title` (see contract/common field builders).
 */
/** The parts of an ajv error we read (ajv runs with `verbose` so parentSchema is present). */
/** Ajv's error parameters are strings and numbers; anything else shows as nothing. */
const shown = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: unknown;
}

type SchemaLike = { title?: string; patternHint?: string; properties?: Record<string, { title?: string }> };

const typeNames: Record<string, string> = {
  integer: '整数',
  number: '数字',
  string: '文本',
  object: '对象',
  array: '列表',
  boolean: '布尔值',
  null: '空值',
};

function fieldLabel(error: ValidationIssue): string {
  const schema = error.parentSchema as SchemaLike | undefined;
  if (schema?.title) return schema.title;
  const last = error.instancePath.split('/').filter(Boolean).pop();
  return last ?? '请求内容';
}

export function describeValidationError(error: ValidationIssue): string {
  const params = error.params;
  const label = fieldLabel(error);
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const title = (error.parentSchema as SchemaLike | undefined)?.properties?.[missing]?.title ?? missing;
      return `${title}不能为空`;
    }
    case 'minLength':
      return Number(shown(params.limit)) <= 1 ? `${label}不能为空` : `${label}长度不能少于 ${shown(params.limit)} 个字符`;
    case 'maxLength':
      return `${label}长度不能超过 ${shown(params.limit)} 个字符`;
    case 'pattern': {
      const hint = (error.parentSchema as SchemaLike | undefined)?.patternHint;
      return hint ? `${label}格式不正确：${hint}` : `${label}格式不正确`;
    }
    case 'minimum':
      return `${label}不能小于 ${shown(params.limit)}`;
    case 'maximum':
      return `${label}不能大于 ${shown(params.limit)}`;
    case 'type':
      return `${label}类型不正确，应为${typeNames[shown(params.type)] ?? shown(params.type)}`;
    case 'additionalProperties':
      return `不支持的字段：${shown(params.additionalProperty)}`;
    case 'textRule':
      return params.codePoint ? `${label}不能包含控制字符（${shown(params.codePoint)}）` : `${label}含有无效的字符编码`;
    case 'maxItems':
      return `${label}最多 ${shown(params.limit)} 项`;
    case 'anyOf':
    case 'enum':
    case 'const':
      return `${label}取值不正确`;
    default:
      return `${label}不合法`;
  }
}

/** The issue a refusal reports: an `anyOf` failure names what the value may be, so it goes first. */
export const firstIssue = (errors: ValidationIssue[]): ValidationIssue | undefined => errors.find((e) => e.keyword === 'anyOf') ?? errors[0];

/** The body path an issue is about (`name`, `params.days`); '' for the body as a whole. */
export function issueField(issue: ValidationIssue): string {
  const path = issue.instancePath.split('/').filter(Boolean);
  const named = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof named === 'string') path.push(named);
  return path.join('.');
}

/** Each refused field once, with the sentence for its first issue; the body as a whole is left to msg. */
export function fieldErrors(errors: ValidationIssue[]): Array<{ field: string; msg: string }> {
  const first = firstIssue(errors);
  const ordered = first ? [first, ...errors.filter((issue) => issue !== first)] : errors;
  const byField = new Map<string, string>();
  for (const issue of ordered) {
    const field = issueField(issue);
    if (field !== '' && !byField.has(field)) byField.set(field, describeValidationError(issue));
  }
  return [...byField].map(([field, msg]) => ({ field, msg }));
}

/** Why a value was refused, in one Chinese sentence. */
export function validationMessage(errors: ValidationIssue[]): string {
  const first = firstIssue(errors);
  return first ? describeValidationError(first) : '请求参数不合法';
}
