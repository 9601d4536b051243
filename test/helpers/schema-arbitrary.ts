// fast-check arbitraries generated from the JSON Schemas of the served OpenAPI document, for the
// property tests: `valid` draws values the schema accepts (the subset of JSON Schema the document
// uses: $ref, anyOf, enum, type lists, string length/pattern/format, integer and number bounds,
// arrays, objects with properties, required, additionalProperties and propertyNames), kept small;
// `invalid` draws values that break it in typical ways (a field missing, an unknown field, a field
// of the wrong kind) or arbitrary JSON. Sizes are capped so that runs stay fast.
import fc from 'fast-check';

type Schema = Record<string, any>;
type Doc = Record<string, any>;

function resolve(doc: Doc, s: Schema): Schema {
  let node = s;
  while (node.$ref)
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n: any, k: string) => n[k], doc);
  return node;
}

const unicode = (min: number, max: number) =>
  fc.string({
    unit: fc.oneof(
      fc.constantFrom('a', 'b', ' ', '/', '%', '.', '\n', 'é', '😀', '\u0000'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    minLength: min,
    maxLength: max,
  });

function stringOf(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 24, 24);
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (s.pattern) {
    const re = new RegExp(s.pattern, 'u');
    const base = /^\^.*\$$/.test(s.pattern) ? fc.stringMatching(re) : unicode(min, max).filter((x) => re.test(x));
    return base.filter((x) => x.length >= min && x.length <= (s.maxLength ?? Infinity));
  }
  return unicode(min, max);
}

export function valid(doc: Doc, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((x: Schema) => valid(doc, x, depth + 1)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type: string) => valid(doc, { ...s, type }, depth)));
  switch (s.type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(doc, s.items ?? {}, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object':
      return objectOf(doc, s, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(doc: Doc, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.fromEntries(Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => [k, valid(doc, v, depth + 1)]));
  const fixed = fc.record(props, { requiredKeys: s.required ?? [] });
  if (!s.additionalProperties || typeof s.additionalProperties !== 'object') return fixed;
  const names = s.propertyNames ?? {};
  const banned: string[] = names.not?.enum ?? [];
  const key = stringOf({ minLength: names.minLength ?? 1, maxLength: names.maxLength ?? 12 }).filter(
    (k) => !banned.includes(k) && !(k in (s.properties ?? {})),
  );
  const extra = fc.dictionary(key, valid(doc, s.additionalProperties, depth + 1), {
    maxKeys: Math.min(s.maxProperties ?? 4, 4),
    noNullPrototype: true,
  });
  return fc.tuple(fixed, extra).map(([a, b]) => ({ ...b, ...a }));
}

/** Values the schema refuses: valid ones with a required field removed, an unknown field added or a field of the wrong kind, or any JSON. */
export function invalid(doc: Doc, schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 5 }),
    fc.constant([]),
    fc.constant({ nested: { deep: [1] } }),
    fc.constant(1e308),
  );
  const mutations =
    s.type === 'object' && s.properties
      ? [
          valid(doc, s).chain((v: any) =>
            fc
              .constantFrom(...(s.required?.length ? s.required : Object.keys(s.properties)))
              .map((k: string) => Object.fromEntries(Object.entries(v).filter(([x]) => x !== k))),
          ),
          valid(doc, s).map((v: any) => ({ ...v, zz_unknown_field: 1 })),
          fc
            .tuple(valid(doc, s), fc.constantFrom(...Object.keys(s.properties)), wrong)
            .map(([v, k, w]: [any, string, unknown]) => ({ ...v, [k]: w })),
        ]
      : [];
  return fc.oneof(...mutations, fc.jsonValue({ maxDepth: 3 }));
}
