// The metadata filter language: on a key, plain equality or the operators $eq $ne $gt $gte $lt $lte
// $in $nin $exists (all of a key's operators must hold); across keys, all must hold; $and, $or and
// $not combine filters. Invariants:
// - a comparison holds only for a present value of the operand's type: numbers compare numerically,
//   strings by Unicode code point (so ISO dates compare as dates), booleans only by (in)equality.
//   `{"k": {"$ne": 1}}` holds for k = 2, not for k = "1" and not for a document without k; `$nin`
//   likewise needs a present value of one of its list's types;
// - `$not` is plain negation of the filter it holds; an empty filter matches every document;
// - `compileFilter` is pure (filter-index.ts narrows a filter to candidates with the same rules).
import type { Filter, FilterCondition, Metadata, MetadataValue } from '../types.js';

export type MetadataPredicate = (metadata: Metadata) => boolean;

const LOGICAL = new Set(['$and', '$or', '$not']);

/** a - b ordered by code point: UTF-16 order differs only where a surrogate meets U+E000..U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const fx = x >= 0xd800 ? (x >= 0xe000 ? x - 0x800 : x + 0x2000) : x;
    const fy = y >= 0xd800 ? (y >= 0xe000 ? y - 0x800 : y + 0x2000) : y;
    return fx - fy;
  }
  return a.length - b.length;
}

/** -1/0/1 when a and b have one type and compare by it (booleans: 0 when equal, NaN when not); undefined when types differ. */
function order(a: MetadataValue, b: MetadataValue): number | undefined {
  if (typeof a !== typeof b) return undefined;
  if (typeof a === 'number') return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  if (typeof a === 'string') return Math.sign(compareCodePoints(a, b as string));
  return a === b ? 0 : Number.NaN;
}

const isCondition = (v: MetadataValue | FilterCondition): v is FilterCondition => typeof v === 'object' && v !== null;

function condition(key: string, cond: FilterCondition): MetadataPredicate {
  const tests: MetadataPredicate[] = [];
  const at = (m: Metadata) => (Object.hasOwn(m, key) ? m[key] : undefined);
  const cmp = (v: MetadataValue, ok: (o: number) => boolean): MetadataPredicate => {
    return (m) => {
      const x = at(m);
      if (x === undefined) return false;
      const o = order(x, v);
      return o !== undefined && !Number.isNaN(o) && ok(o);
    };
  };
  if (cond.$eq !== undefined) tests.push(cmp(cond.$eq, (o) => o === 0));
  if (cond.$gt !== undefined) tests.push(cmp(cond.$gt, (o) => o > 0));
  if (cond.$gte !== undefined) tests.push(cmp(cond.$gte, (o) => o >= 0));
  if (cond.$lt !== undefined) tests.push(cmp(cond.$lt, (o) => o < 0));
  if (cond.$lte !== undefined) tests.push(cmp(cond.$lte, (o) => o <= 0));
  if (cond.$ne !== undefined) {
    const v = cond.$ne;
    tests.push((m) => {
      const x = at(m);
      return x !== undefined && typeof x === typeof v && x !== v;
    });
  }
  if (cond.$in !== undefined) {
    const set = new Set<MetadataValue>(cond.$in);
    tests.push((m) => {
      const x = at(m);
      return x !== undefined && set.has(x);
    });
  }
  if (cond.$nin !== undefined) {
    const set = new Set<MetadataValue>(cond.$nin);
    const types = new Set(cond.$nin.map((v) => typeof v));
    tests.push((m) => {
      const x = at(m);
      return x !== undefined && types.has(typeof x) && !set.has(x);
    });
  }
  if (cond.$exists !== undefined) {
    const want = cond.$exists;
    tests.push((m) => Object.hasOwn(m, key) === want);
  }
  return all(tests);
}

function all(tests: MetadataPredicate[]): MetadataPredicate {
  if (tests.length === 1) return tests[0];
  return (m) => tests.every((t) => t(m));
}

/** The predicate of a filter (which the API has validated against the OpenAPI `Filter` schema). */
export function compileFilter(filter: Filter): MetadataPredicate {
  const tests: MetadataPredicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and') {
      const parts = (value as Filter[]).map(compileFilter);
      tests.push((m) => parts.every((p) => p(m)));
    } else if (key === '$or') {
      const parts = (value as Filter[]).map(compileFilter);
      tests.push((m) => parts.some((p) => p(m)));
    } else if (key === '$not') {
      const inner = compileFilter(value as Filter);
      tests.push((m) => !inner(m));
    } else {
      const v = value as MetadataValue | FilterCondition;
      tests.push(isCondition(v) ? condition(key, v) : condition(key, { $eq: v }));
    }
  }
  return tests.length === 0 ? () => true : all(tests);
}

/** Nesting depth (a filter with no $and/$or/$not is 1) and operator count (each key condition and each logical operator). */
export function filterSize(filter: Filter): { depth: number; operators: number } {
  let depth = 1;
  let operators = 0;
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (LOGICAL.has(key)) {
      operators++;
      const parts = key === '$not' ? [value as Filter] : (value as Filter[]);
      for (const p of parts) {
        const s = filterSize(p);
        depth = Math.max(depth, s.depth + 1);
        operators += s.operators;
      }
    } else {
      const v = value as MetadataValue | FilterCondition;
      operators += isCondition(v) ? Object.keys(v).length : 1;
    }
  }
  return { depth, operators };
}
