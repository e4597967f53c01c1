import fc from 'fast-check';
import type { JsonSchema } from './contract-table.ts';

/**
 * Generators of malformed requests for the fuzz test (contract-fuzz.test.ts), read from a request's
 * JSON Schema so a new action gets them the day it is written: fields missing, of the wrong type,
 * of the right type with hostile content (NUL, lone surrogates, huge, deeply nested), extra and
 * prototype-polluting keys; and bodies that are not a request at all (not JSON, not an object, the
 * wrong content type, too large).
 */

/** The server's body limit (app.ts bodyLimit); a body past it must answer 413. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** What one case sends: a JSON value as the client would, or raw text with a content type. */
export type BadRequest =
  | { kind: 'json'; body: unknown; note: string }
  | { kind: 'raw'; raw: string; contentType: string; note: string };

const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\ud800', 'a\udc00b', '\udbff', `x${'\ud83d'}`),
  fc.integer({ min: 300, max: 5_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('', ' ', '\t\n', 'null', 'undefined', '__proto__', '../../etc/passwd', "'; drop table users; --"),
  fc.constantFrom('a@b', 'someone@example.test\u0000', 'A@B.CO ', '@example.test', `${'x'.repeat(250)}@example.test`),
  fc.uuid().map(String),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1.5, 1e20, -1e20, Number.MAX_SAFE_INTEGER + 2, 2 ** 31),
);

/** A value nested `depth` levels (objects or arrays), as deep as JSON.stringify can still write in a worker. */
const deeplyNested = fc.tuple(fc.integer({ min: 9, max: 1_000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { n: v };
  return v;
});

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  deeplyNested,
);

/** Keys no request has: harmless ones, prototype names, and keys breaking the text rules. */
const extraKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'k\u0000', '\ud800'),
);

function typesOf(schema: JsonSchema): string[] {
  if (schema.const !== undefined) return [typeof schema.const];
  if (schema.enum) return [...new Set(schema.enum.map((e) => typeof e))];
  return [schema.type ?? 'any'].flat();
}

/** A value for one field: most often of the field's own type with hostile content, else any wrong type. */
export function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => valueFor(a, depth)));
  const own: fc.Arbitrary<unknown>[] = [];
  if (schema.const !== undefined) own.push(fc.constant(schema.const));
  if (schema.enum?.length) own.push(fc.constantFrom(...schema.enum));
  for (const type of typesOf(schema)) {
    if (type === 'string') own.push(hostileString);
    else if (type === 'number' || type === 'integer') own.push(hostileNumber);
    else if (type === 'boolean') own.push(fc.boolean());
    else if (type === 'array')
      own.push(
        fc.oneof(
          fc.array(schema.items && depth < 4 ? valueFor(schema.items, depth + 1) : wrongType, { maxLength: 4 }),
          fc.integer({ min: 101, max: 3_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
        ),
      );
    else if (type === 'object') own.push(depth < 4 ? objectFor(schema, depth + 1) : deeplyNested);
  }
  if (own.length === 0) return wrongType;
  return fc.oneof({ arbitrary: fc.oneof(...own), weight: 3 }, { arbitrary: wrongType, weight: 1 });
}

/** An object of the schema's fields, each maybe missing, with maybe a few extra keys. */
export function objectFor(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const fields = props.map(([name, prop]) =>
    fc.option(
      valueFor(prop, depth).map((v) => [name, v] as const),
      { freq: 4, nil: undefined },
    ),
  );
  const extras = fc.array(fc.tuple(extraKey, fc.jsonValue({ maxDepth: 2 })), { maxLength: 2 });
  return fc.tuple(fc.tuple(...fields), extras).map(([present, extra]) => {
    const out: Record<string, unknown> = {};
    // defineProperty: a `__proto__` key is sent as an own key, as a hostile client writes it.
    for (const entry of [...present.filter((p) => p !== undefined), ...extra])
      Object.defineProperty(out, entry[0], { value: entry[1], enumerable: true, writable: true, configurable: true });
    return out;
  });
}

/** Request bodies for one action: its fields gone wrong, plus bodies that are no request at all. */
export function badRequests(action: string, schema: JsonSchema): fc.Arbitrary<BadRequest> {
  const asAction = objectFor(schema).map(
    (body): BadRequest => ({ kind: 'json', body: { ...body, action }, note: 'fields' }),
  );
  const notARequest = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
    objectFor(schema).map((body) => ({ ...body })),
    fc
      .tuple(objectFor(schema), fc.oneof(wrongType, fc.constantFrom('', 'Nope', `${action} `, action.toLowerCase())))
      .map(([body, name]) => ({ ...body, action: name })),
  );
  const raw = fc.oneof(
    fc.string({ maxLength: 60 }).map((s) => ({ raw: `{"action":"${action}",${s}`, contentType: 'application/json' })),
    fc.constantFrom(
      { raw: '', contentType: 'application/json' },
      { raw: 'null', contentType: 'application/json' },
      { raw: `{"action":"${action}","__proto__":{"isAdmin":true}}`, contentType: 'application/json' },
      { raw: `{"action":"${action}","constructor":{"prototype":{"x":1}}}`, contentType: 'application/json' },
      { raw: `{"action":"${action}"}`, contentType: 'text/plain' },
      { raw: `action=${action}`, contentType: 'application/x-www-form-urlencoded' },
      { raw: `{"action":"${action}"}`, contentType: 'application/json; charset=utf-16' },
    ),
    // Nesting written as text: deeper than any value JSON.stringify can write.
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => ({
      raw: `{"action":"${action}","x":${'['.repeat(n)}${']'.repeat(n)}}`,
      contentType: 'application/json',
    })),
    // Past the body limit.
    fc
      .integer({ min: BODY_LIMIT_BYTES + 1, max: BODY_LIMIT_BYTES + 65_536 })
      .map((n) => ({ raw: `{"action":"${action}","x":"${'x'.repeat(n)}"}`, contentType: 'application/json' })),
  );
  return fc.oneof(
    { arbitrary: asAction, weight: 8 },
    { arbitrary: notARequest.map((body): BadRequest => ({ kind: 'json', body, note: 'not a request' })), weight: 1 },
    { arbitrary: raw.map((r): BadRequest => ({ kind: 'raw', ...r, note: 'raw' })), weight: 1 },
  );
}
