/**
 * Request validation (docs/API.md, input rules). A JSON body is taken as sent: no value is coerced (a string is
 * never turned into a number, which is how "Infinity" and "1e400" once became ±Infinity and
 * passed integer checks), numbers must be finite, and every string obeys its `textRule`. Query
 * strings are text by nature, so the two GET helpers get one narrow coercion: a value of plain
 * decimal digits becomes the integer its schema asks for; anything else ("1e3", "+1", " 1",
 * "Infinity") stays text and fails the type check.
 */
import Ajv, { type AnySchemaObject, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { TextRule } from '../../contract/common';

/** Unicode control characters (Cc); `multiline` text may keep tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_EXCEPT_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** A surrogate half without its partner is not a character; databases would store U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a text under its rule, or null. */
export function textRuleViolation(rule: TextRule, text: string): { codePoint?: string } | null {
  const control = (rule === 'multiline' ? CONTROL_EXCEPT_BREAKS : CONTROL).exec(text);
  if (control) return { codePoint: `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` };
  if (LONE_SURROGATE.test(text)) return {};
  return null;
}

function createAjv(): Ajv {
  const ajv = new Ajv({
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    // One error is enough for the message, and collecting all of them is a known DoS lever.
    allErrors: false,
    strictNumbers: true,
    verbose: true,
  });
  ajv.addKeyword({ keyword: 'patternHint', schemaType: 'string' });
  // Marks a credential for redaction (contract field.secret); it validates nothing.
  ajv.addKeyword({ keyword: 'secret', schemaType: 'boolean' });
  ajv.addKeyword({
    keyword: 'textRule',
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: function textRule(rule: TextRule, data: string, parentSchema?: AnySchemaObject): boolean {
      const violation = textRuleViolation(rule, data);
      if (!violation) return true;
      (textRule as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: 'textRule', params: violation, parentSchema }];
      return false;
    },
  });
  return ajv;
}

type SchemaWithProperties = { properties?: Record<string, { type?: string }> };
const DIGITS = /^[0-9]{1,10}$/;

/** Turns digit-only query values into numbers where the schema wants an integer, in place. */
function digitsToIntegers(schema: SchemaWithProperties, query: unknown): void {
  if (query === null || typeof query !== 'object' || !schema.properties) return;
  const values = query as Record<string, unknown>;
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = values[key];
    if (property.type === 'integer' && typeof value === 'string' && DIGITS.test(value)) values[key] = Number(value);
  }
}

/** The compiler Fastify uses for every route schema: one Ajv per app, shared by all its parts. */
export function createValidatorCompiler(): FastifySchemaCompiler<SchemaObject> {
  const ajv = createAjv();
  return ({ schema, httpPart }) => {
    const validate: ValidateFunction = ajv.compile(schema);
    if (httpPart !== 'querystring') return validate;
    const validateQuery = (query: unknown) => {
      digitsToIntegers(schema as SchemaWithProperties, query);
      const valid = validate(query);
      validateQuery.errors = validate.errors;
      return valid;
    };
    validateQuery.errors = null as ValidateFunction['errors'];
    return validateQuery;
  };
}
