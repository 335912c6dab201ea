/**
 * The parts of an OpenAPI 3.1 document the 接口文档 screen reads, and how it lays them out: one
 * group per tag (区域 / 菜单), one entry per operation, its fields from the request schema.
 */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

interface MediaContent {
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: MediaContent;
  responses?: Record<string, MediaContent & { description?: string }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface Operation {
  key: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
  operation: OpenApiOperation;
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  title: string;
  rule: string;
}

const UNTAGGED = '其他';

/** Every operation, grouped by tag in the document's order, filtered by path or summary. */
export function groupOperations(document: OpenApiDocument, search: string): Array<{ tag: string; operations: Operation[] }> {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, Operation[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const summary = operation.summary ?? '';
      if (needle && !path.toLowerCase().includes(needle) && !summary.toLowerCase().includes(needle)) continue;
      const tag = operation.tags?.[0] ?? UNTAGGED;
      const entry: Operation = { key: `${method} ${path}`, method: method.toUpperCase(), path, summary, tag, operation };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}

const typeOf = (schema: JsonSchema): string => {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'unknown'}[]`;
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object');
};

const ruleOf = (schema: JsonSchema): string =>
  [
    schema.minLength !== undefined ? `长度 ≥ ${schema.minLength}` : '',
    schema.maxLength !== undefined ? `长度 ≤ ${schema.maxLength}` : '',
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
    schema.enum ? `取值 ${schema.enum.map((value) => JSON.stringify(value)).join('、')}` : '',
    schema.default !== undefined ? `默认 ${JSON.stringify(schema.default)}` : '',
  ]
    .filter(Boolean)
    .join('，');

/** The request's fields: the JSON body's properties, or the query parameters of a GET. */
export function requestFields(operation: OpenApiOperation): FieldRow[] {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body?.properties) {
    const required = new Set(body.required ?? []);
    return Object.entries(body.properties).map(([name, schema]) => ({ name, type: typeOf(schema), required: required.has(name), title: schema.title ?? '', rule: ruleOf(schema) }));
  }
  return (operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({
      name: parameter.name,
      type: parameter.schema ? typeOf(parameter.schema) : '',
      required: parameter.required === true,
      title: parameter.schema?.title ?? '',
      rule: parameter.schema ? ruleOf(parameter.schema) : '',
    }));
}

/** The schema of the answer's `data` (the envelope's payload), when the answer is JSON. */
export function answerSchema(operation: OpenApiOperation): JsonSchema | undefined {
  return operation.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
}

const SECURITY_NAMES: Record<string, string> = { staffToken: '员工令牌', deviceKey: '设备密钥', metricsToken: '监控令牌' };

export function securityText(operation: OpenApiOperation): string {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  return schemes.length === 0 ? '无需认证' : schemes.map((scheme) => SECURITY_NAMES[scheme] ?? scheme).join('、');
}
