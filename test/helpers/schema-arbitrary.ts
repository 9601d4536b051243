// fast-check arbitraries generated from the JSON Schemas of the served OpenAPI document, for the
// property tests: `valid` draws values the schema accepts (the subset of JSON Schema the document
// uses: $ref, anyOf, enum, type lists, string length/pattern/format, integer and number bounds,
// arrays, objects with properties, patternProperties, required, additionalProperties, propertyNames
// and min/maxProperties, an object's oneOf of required-only branches, `not: {enum}`, keywords beside a $ref;
// recursive schemas stop nesting past a few levels), kept small;
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
  const s = { ...resolve(doc, schema), ...(schema.$ref ? Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) : {}) };
  // An object's oneOf of required-only branches (exactly one of two fields): one branch, the others' fields left out.
  if (s.oneOf && s.properties) {
    const branches: Schema[] = s.oneOf;
    return fc.constantFrom(...branches).chain((b) => {
      const others = branches.flatMap((o) => (o === b ? [] : o.required));
      const properties = Object.fromEntries(Object.entries<Schema>(s.properties).filter(([k]) => !others.includes(k)));
      return objectOf(doc, { ...s, oneOf: undefined, properties, required: [...(s.required ?? []), ...b.required] }, depth);
    });
  }
  if (s.anyOf) return fc.oneof(...s.anyOf.map((x: Schema) => valid(doc, x, depth + 1)));
  if (s.enum) return fc.constantFrom(...s.enum);
  // `not: {enum}` (a path segment that is not '.' or '..'): the values it excludes are never drawn
  if (s.not?.enum) {
    const banned: unknown[] = s.not.enum;
    return valid(doc, { ...s, not: undefined }, depth).filter((v) => !banned.includes(v));
  }
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
      // lists of objects (filters in $and, $or) hold at most 2, so a recursive schema stays small
      return fc.array(valid(doc, s.items ?? {}, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, composite(doc, s.items ?? {}) ? 2 : 4),
      });
    case 'object':
      return objectOf(doc, s, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Past this depth an object draws no optional property that holds objects (a recursive schema ends). */
const MAX_DEPTH = 6;

/** Whether values of the schema can hold an object. */
function composite(doc: Doc, schema: Schema): boolean {
  const s = resolve(doc, schema);
  if (s.anyOf) return s.anyOf.some((x: Schema) => composite(doc, x));
  if (s.type === 'array') return composite(doc, s.items ?? {});
  return s.type === 'object' || s.type === undefined;
}

function objectOf(doc: Doc, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const required: string[] = s.required ?? [];
  const entries = Object.entries<Schema>(s.properties ?? {}).filter(
    ([k, v]) => depth < MAX_DEPTH || required.includes(k) || !composite(doc, v),
  );
  const props = Object.fromEntries(entries.map(([k, v]) => [k, valid(doc, v, depth + 1)]));
  const fixed = fc.record(props, { requiredKeys: required });
  const names = s.propertyNames ?? {};
  const banned: string[] = names.not?.enum ?? [];
  const keyOf = (pattern?: string) =>
    stringOf({ minLength: names.minLength ?? 1, maxLength: Math.min(names.maxLength ?? 12, 12) }).filter(
      (k) => !banned.includes(k) && !(k in (s.properties ?? {})) && (!pattern || new RegExp(pattern, 'u').test(k)),
    );
  const maxKeys = Math.min(s.maxProperties ?? 4, 4);
  const extras: Array<fc.Arbitrary<Record<string, unknown>>> = [];
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    extras.push(fc.dictionary(keyOf(), valid(doc, s.additionalProperties, depth + 1), { maxKeys, noNullPrototype: true }));
  if (depth < MAX_DEPTH)
    for (const [pattern, v] of Object.entries<Schema>(s.patternProperties ?? {}))
      extras.push(fc.dictionary(keyOf(pattern), valid(doc, v, depth + 1), { maxKeys: Math.min(maxKeys, 2), noNullPrototype: true }));
  const count = (o: Record<string, unknown>) => Object.keys(o).length;
  return fc
    .tuple(fixed, ...extras)
    .map(([a, ...rest]) => Object.assign({}, ...rest, a) as Record<string, unknown>)
    .filter((o) => count(o) >= (s.minProperties ?? 0) && count(o) <= (s.maxProperties ?? Number.POSITIVE_INFINITY));
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
