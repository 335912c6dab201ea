/**
 * Invalid requests generated from a route's contract schema (fast-check). A case is a valid-looking
 * base value with exactly one mutation that no value of the schema allows: a wrong type, a missing
 * required key, an extra key (including `__proto__` and `constructor`), a non-finite or out-of-range
 * number, a string too long or holding a control character or a lone surrogate, an array with too
 * many items, or a body of the wrong kind altogether. Because every mutation is invalid by
 * construction, the only right answer to every case is a 400.
 *
 * Bodies are sent as JSON text so that what cannot be a JavaScript value arrives as written:
 * `1e400` as a number literal, `__proto__` as a real key.
 */
import fc from 'fast-check';
import { INT4_MAX } from '../../../src/contract/common';
import { textRuleViolation } from '../../../src/server/lib/validators';

export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  patternProperties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  const?: unknown;
  items?: SchemaNode;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  textRule?: 'line' | 'multiline';
  title?: string;
  default?: unknown;
}

/** A number literal sent verbatim in the JSON text. */
class RawNumber {
  constructor(readonly text: string) {}
}

export interface InvalidCase {
  /** What was done, for the failure report. */
  mutation: string;
  /** POST: the JSON text; GET: the query string. */
  text: string;
}

type Path = (string | number)[];
interface Site {
  path: Path;
  node: SchemaNode;
  /** Set when the site is a property its parent object requires. */
  requiredBy?: SchemaNode;
}

/** Every place in a schema a mutation can aim at. Unknown values (task parameters) are not walked. */
function sites(node: SchemaNode, path: Path = [], requiredBy?: SchemaNode): Site[] {
  const here: Site = { path, node, ...(requiredBy ? { requiredBy } : {}) };
  if (node.anyOf) {
    const inner = node.anyOf.filter((branch) => branch.type !== 'null' && branch.const === undefined);
    return [here, ...inner.flatMap((branch) => sites(branch, path).filter((site) => site.path.length > path.length))];
  }
  if (node.type === 'object' && node.properties) {
    // A key with a default (page size, page number) may be left out.
    const required = new Set((node.required ?? []).filter((key) => node.properties![key].default === undefined));
    return [here, ...Object.entries(node.properties).flatMap(([key, child]) => sites(child, [...path, key], required.has(key) ? node : undefined))];
  }
  if (node.type === 'array' && node.items) return [here, ...sites(node.items, [...path, 0])];
  return [here];
}

const isPrintable = (text: string) => textRuleViolation('line', text) === null;

/** An integer field whose values are those of an `integer` column, ids first among them. */
const isIdLike = (node: SchemaNode) => node.type === 'integer' && node.maximum === INT4_MAX;

/**
 * A value the schema accepts (as far as a generator can tell: only the mutation matters for the
 * verdict). With `idsAtLimit`, every id-like field holds the largest id there can be.
 */
function valid(node: SchemaNode, idsAtLimit = false): fc.Arbitrary<unknown> {
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.anyOf) return fc.oneof(...node.anyOf.filter((branch) => !idsAtLimit || branch.type !== 'null').map((branch) => valid(branch, idsAtLimit)));
  switch (node.type) {
    case 'null':
      return fc.constant(null);
    case 'integer':
      if (idsAtLimit && isIdLike(node)) return fc.constant(INT4_MAX);
      return fc.integer({ min: node.minimum ?? -1000, max: node.maximum ?? 1000 });
    case 'string': {
      const min = node.minLength ?? 0;
      const max = Math.min(node.maxLength ?? 20, 20);
      const text = node.pattern ? fc.stringMatching(new RegExp(node.pattern), { size: 'xsmall' }) : fc.string({ minLength: min, maxLength: Math.max(min, max) });
      return text.filter((s) => s.length >= min && s.length <= (node.maxLength ?? Infinity) && isPrintable(s) && (!node.pattern || new RegExp(node.pattern).test(s)));
    }
    case 'array':
      return fc.array(valid(node.items ?? {}, idsAtLimit), { minLength: 1, maxLength: Math.min(node.maxItems ?? 3, 3) });
    case 'object': {
      if (!node.properties) return fc.constant({});
      const entries = Object.fromEntries(Object.entries(node.properties).map(([key, child]) => [key, valid(child, idsAtLimit)]));
      // At the limit every field is present, so each id is there to be read.
      return fc.record(entries, idsAtLimit ? {} : { requiredKeys: node.required ?? [] });
    }
    default:
      return fc.constant(null);
  }
}

const CONTROL = [...Array.from({ length: 32 }, (_, i) => i), ...Array.from({ length: 33 }, (_, i) => 0x7f + i)].map((code) => String.fromCharCode(code));
const LINE_BREAKS = new Set(['\t', '\n', '\r']);

/** Values of a JSON type the node does not accept (null only where it does not accept null). */
function wrongTypes(node: SchemaNode): unknown[] {
  const branches = node.anyOf ?? [node];
  const accepts = (type: string) => branches.some((branch) => branch.type === type || (type === 'string' && typeof branch.const === 'string'));
  return [
    ...(accepts('string') ? [] : ['text']),
    ...(accepts('integer') || accepts('number') ? [] : [7]),
    ...(accepts('number') ? [] : [1.5]),
    ...(accepts('boolean') ? [] : [true]),
    ...(accepts('object') ? [] : [{ nested: 1 }]),
    ...(accepts('array') ? [] : [[1]]),
    ...(accepts('null') ? [] : [null]),
    // Numbers written as text: a JSON body is never coerced.
    ...(accepts('integer') ? ['5', 'Infinity', '-Infinity', '1e400', 'NaN', ' 1'] : []),
    ...(branches.every((branch) => branch.const !== undefined) ? ['not-one-of-them'] : []),
  ];
}

function mutationsAt(site: Site): fc.Arbitrary<[string, (base: unknown) => unknown]> {
  const { node, path } = site;
  const at = (label: string, value: fc.Arbitrary<unknown>) =>
    value.map((v): [string, (base: unknown) => unknown] => [`${label} at /${path.join('/')}`, (base) => put(base, path, v)]);
  const options: fc.Arbitrary<[string, (base: unknown) => unknown]>[] = [at('wrong type', fc.constantFrom(...wrongTypes(node)))];
  const numberNode = node.type === 'integer' ? node : node.anyOf?.find((branch) => branch.type === 'integer');
  if (numberNode) {
    const { minimum = -(2 ** 31), maximum = 2 ** 31 - 1 } = numberNode;
    options.push(
      at('out of range', fc.constantFrom(...[minimum - 1, maximum + 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e21, 1e308].filter((n) => n < minimum || n > maximum))),
      at('non-finite', fc.constantFrom(new RawNumber('1e400'), new RawNumber('-1e400'), new RawNumber('1E+999'))),
      at('out of range', fc.integer({ min: maximum + 1, max: maximum + 1_000_000 })),
    );
  }
  const stringNode = node.type === 'string' ? node : undefined;
  if (stringNode) {
    const maxLength = stringNode.maxLength ?? 1000;
    const controls = CONTROL.filter((c) => stringNode.textRule !== 'multiline' || !LINE_BREAKS.has(c));
    options.push(
      at(
        'too long',
        fc.integer({ min: maxLength + 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
      ),
      at(
        'control character',
        fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...controls), fc.string({ maxLength: 10 })).map(([a, c, b]) => `${a}${c}${b}`),
      ),
      at('lone surrogate', fc.constantFrom('\ud800', 'a\udc00b', '\udbff')),
    );
    if ((stringNode.minLength ?? 0) > 0) options.push(at('too short', fc.constant('')));
  }
  if (node.type === 'object' && node.additionalProperties === false) {
    const known = new Set(Object.keys(node.properties ?? {}));
    const keys = fc
      .oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'isAdmin'), fc.string({ minLength: 1, maxLength: 12 }))
      .filter((key) => !known.has(key));
    options.push(
      fc
        .tuple(keys, fc.constantFrom<unknown>(1, 'x', { prototype: { polluted: 1 } }, { admin: true }, null))
        .map(([key, value]): [string, (base: unknown) => unknown] => [`extra key ${JSON.stringify(key)} at /${path.join('/')}`, (base) => addKey(base, path, key, value)]),
    );
  }
  if (node.type === 'array' && node.maxItems !== undefined) {
    const tooMany = node.maxItems + 1;
    options.push(
      valid(node.items ?? {}).map((item): [string, (base: unknown) => unknown] => [
        `${tooMany} items at /${path.join('/')}`,
        (base) =>
          put(
            base,
            path,
            Array.from({ length: tooMany }, () => item),
          ),
      ]),
    );
  }
  if (site.requiredBy) {
    const key = path[path.length - 1] as string;
    options.push(fc.constant<[string, (base: unknown) => unknown]>([`missing ${key}`, (base) => remove(base, path)]));
  }
  return fc.oneof(...options);
}

function clone(value: unknown): unknown {
  return value === null || typeof value !== 'object' ? value : Array.isArray(value) ? value.map(clone) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
}

/** The container at `path` (created as {} where the base left an optional object out). */
function container(root: Record<string | number, unknown>, path: Path): Record<string | number, unknown> {
  let current = root;
  for (const key of path) {
    if (current[key] === null || typeof current[key] !== 'object') current[key] = {};
    current = current[key] as Record<string | number, unknown>;
  }
  return current;
}

function put(base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const root = clone(base) as Record<string | number, unknown>;
  container(root, path.slice(0, -1))[path[path.length - 1]] = value;
  return root;
}

function remove(base: unknown, path: Path): unknown {
  const root = clone(base) as Record<string | number, unknown>;
  delete container(root, path.slice(0, -1))[path[path.length - 1]];
  return root;
}

function addKey(base: unknown, path: Path, key: string, value: unknown): unknown {
  const root = (path.length === 0 && (base === null || typeof base !== 'object') ? {} : clone(base)) as Record<string, unknown>;
  const target = path.length === 0 ? root : container(root, path);
  // A plain assignment of "__proto__" would set the prototype instead of adding a key.
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return root;
}

/** JSON text with RawNumber values written verbatim. */
function toJsonText(value: unknown): string {
  const raw: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawNumber ? `__raw_number_${raw.push(v.text) - 1}__` : v)) ?? 'null';
  return text.replace(/"__raw_number_(\d+)__"/g, (_match, index: string) => raw[Number(index)]);
}

/** Bodies of the wrong kind altogether, as text. */
const WRONG_BODIES = ['[]', '"text"', '42', 'null', 'true', '[{}]', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '1e400'];

/** Invalid JSON bodies for a POST route's body schema. */
export function invalidBodies(schema: SchemaNode): fc.Arbitrary<InvalidCase> {
  const targets = sites(schema);
  const mutated = fc
    .tuple(valid(schema), fc.constantFrom(...targets).chain(mutationsAt))
    .map(([base, [mutation, apply]]): InvalidCase => ({ mutation, text: toJsonText(apply(base)) }));
  return fc.oneof({ arbitrary: mutated, weight: 9 }, { arbitrary: fc.constantFrom(...WRONG_BODIES).map((text): InvalidCase => ({ mutation: 'wrong body', text })), weight: 1 });
}

/** Invalid query strings for a GET route's querystring schema (flat: every value is text). */
export function invalidQueries(schema: SchemaNode): fc.Arbitrary<InvalidCase> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const validQuery = fc.record(Object.fromEntries(properties.map(([key, node]) => [key, valid(node).map(String)])));
  const badValues = fc.oneof(
    fc.constantFrom('Infinity', '-Infinity', '1e400', '1e3', 'NaN', '-1', '0', '1.5', '+1', ' 1', '0x10', '', '2147483648', '99999999999', 'abc', '\u0000', '1\u0000'),
    fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/^[0-9]+$/.test(s)),
  );
  const encode = (query: Record<string, string | string[]>) =>
    Object.entries(query)
      .flatMap(([key, value]) => ([] as string[]).concat(value).map((v) => `${encodeURIComponent(key)}=${encodeURIComponent(v)}`))
      .join('&');
  return fc.oneof(
    fc
      .tuple(validQuery, fc.constantFrom(...properties.map(([key]) => key)), badValues)
      .map(([base, key, value]) => ({ mutation: `bad ${key}=${JSON.stringify(value)}`, text: encode({ ...base, [key]: value }) })),
    fc
      .tuple(validQuery, fc.constantFrom(...properties.map(([key]) => key)))
      .map(([base, key]) => ({ mutation: `repeated ${key}`, text: encode({ ...base, [key]: [base[key], base[key]] }) })),
    fc.tuple(validQuery, fc.constantFrom('extra', '__proto__', 'constructor')).map(([base, key]) => ({ mutation: `extra ${key}`, text: `${encode(base)}&${key}=1` })),
    ...[...required].map((key) => validQuery.map((base) => ({ mutation: `missing ${key}`, text: encode(Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))) }))),
  );
}

/** Every place of a schema that holds an id-like integer (a nullable one included). */
const idSites = (schema: SchemaNode) =>
  sites(schema)
    .filter(({ node }) => isIdLike(node) || node.anyOf?.some(isIdLike))
    .map(({ path }) => path);

/** Past the largest id an integer column holds (PostgreSQL refuses the value itself), and far past it. */
const PAST_ID_LIMIT = [INT4_MAX + 1, 2 ** 53 + 2];

/**
 * For every id-like field of a POST route's body: a body whose other ids are at the limit (the
 * largest id there is, which is valid) and this one past it. Each is refused, and must be refused
 * without reading anything by that id.
 */
export function idLimitBodies(schema: SchemaNode, seed: number): InvalidCase[] {
  const [base] = fc.sample(valid(schema, true), { numRuns: 1, seed });
  return idSites(schema).flatMap((path) =>
    PAST_ID_LIMIT.map((id): InvalidCase => ({ mutation: `id ${id} past the limit at /${path.join('/')}, other ids at ${INT4_MAX}`, text: toJsonText(put(base, path, id)) })),
  );
}

/** The same for a GET route's query string: each id-like parameter past the limit, the others at it. */
export function idLimitQueries(schema: SchemaNode): InvalidCase[] {
  const properties = Object.entries(schema.properties ?? {});
  const atLimit = Object.fromEntries(properties.filter(([, node]) => isIdLike(node)).map(([key]) => [key, String(INT4_MAX)]));
  return Object.keys(atLimit).flatMap((key) =>
    PAST_ID_LIMIT.map((id): InvalidCase => ({
      mutation: `${key}=${id} past the limit`,
      text: new URLSearchParams({ ...atLimit, [key]: String(id) }).toString(),
    })),
  );
}
