/**
 * What an audit record may keep of a request or a record: the value walked together with its
 * contract schema. A field the contract marks `secret` (field.secret: passwords, device keys, app
 * secrets, tokens) becomes ******; a value the schema does not describe (an unknown field, an object
 * where text belongs) becomes [未记录], because nothing says it is not a secret. No list of field
 * names is kept anywhere: marking a new field secret in the contract is all it takes.
 */
import { isSecret } from '../../contract/common';

export const REDACTED = '******';
export const UNRECORDED = '[未记录]';
/** Long text is cut: a record shows what was sent, not a copy of every byte. */
const TEXT_MAX = 1000;

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
}

const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value);

const fits = (schema: Schema, value: unknown): boolean => {
  const type = jsonType(value);
  if (schema.const !== undefined) return schema.const === value;
  if (schema.anyOf) return schema.anyOf.some((branch) => fits(branch, value));
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) return true;
  return types.some((t) => t === type || ((t === 'integer' || t === 'number') && type === 'number'));
};

const primitive = (value: unknown) => (typeof value === 'string' && value.length > TEXT_MAX ? `${value.slice(0, TEXT_MAX)}…` : value);

export function redact(schema: unknown, value: unknown): unknown {
  if (value === undefined) return undefined;
  const s = (schema ?? {}) as Schema;
  if (isSecret(s)) return value === '' || value === null ? value : REDACTED;
  if (s.anyOf) {
    if (s.anyOf.some(isSecret)) return value === null ? null : REDACTED;
    const branch = s.anyOf.find((candidate) => fits(candidate, value));
    return branch ? redact(branch, value) : UNRECORDED;
  }
  const type = jsonType(value);
  // An unconstrained schema (Type.Unknown) describes any value: schedule parameters, details.
  if (s.type === undefined && s.const === undefined && !s.properties) return value;
  if (type === 'object') {
    if (s.type !== 'object') return UNRECORDED;
    // No prototype: a "__proto__" key sent in a body stays a plain key of the copy.
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const described =
        (s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined) ??
        (s.patternProperties ? Object.values(s.patternProperties)[0] : undefined) ??
        (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      out[key] = described ? redact(described, item) : UNRECORDED;
    }
    return out;
  }
  if (type === 'array') return s.type === 'array' ? (value as unknown[]).map((item) => redact(s.items, item)) : UNRECORDED;
  return primitive(value);
}
