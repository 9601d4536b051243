// Property tests generated from the served OpenAPI document (fast-check), for every operation:
// - random requests (path parameters naming existing or random stores and documents, query
//   parameters, declared headers and bodies, each drawn valid or invalid from the document's own
//   schemas) never get a 5xx; every response's status is one the operation declares, an error's
//   type is one declared under that status, and every body matches its declared schema;
// - requests drawn valid in every part are accepted: 2xx, or 404 (a store or document that is not
//   there) or 409 (a store name taken). What no schema can state is kept out of them: a cursor must
//   come from a previous page, a file sent as `content` must be a real PNG, JPEG or PDF, the ids of
//   one ingest must differ, a reused Idempotency-Key must come with the same body, and a filter has
//   at most 256 operators.
// SVC_PROP_RUNS sets the runs per operation (default 40); SVC_PROP_SEED replays a failure.

import fc from 'fast-check';
import t from 'tap';
import type { Filter } from '../src/api-types.js';
import { filterSize } from '../src/engine/index.js';
import { SchemaChecker } from './helpers/schema.js';
import { invalid, valid } from './helpers/schema-arbitrary.js';
import { startTestServer } from './helpers/server.js';

const RUNS = Number(process.env.SVC_PROP_RUNS ?? 40);
const SEED = process.env.SVC_PROP_SEED ? Number(process.env.SVC_PROP_SEED) : undefined;
const { api } = await startTestServer(t, { rateLimit: 1e6 });
const doc = await api.get('/openapi.json');
const schemas = new SchemaChecker(doc);
const ANYWHERE = new Set(['route_not_found', 'method_not_allowed', 'headers_too_large']);

/** Stores p1 (with documents d1 and a/b) and p2, re-created whenever a random delete removed them. */
let p2id = '';
async function fixtures(): Promise<void> {
  for (const name of ['p1', 'p2']) {
    const r = await api.raw('GET', `/stores/${name}`);
    const id = r.status === 200 ? r.body.id : (await api.post('/stores', { name })).id;
    if (name === 'p2') p2id = id;
  }
  await api.post('/stores/p1/documents', {
    documents: [
      { id: 'd1', text: 'Seed document about comets.', metadata: { team: 'sky' } },
      { id: 'a/b', text: 'Slash id about moons.' },
    ],
  });
}
await fixtures();

const ref = (p: Record<string, any>) =>
  p.$ref
    ? p.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n: any, k: string) => n[k], doc)
    : p;
const encode = (s: string) => encodeURIComponent(s).replace(/\./g, '%2E');

interface Req {
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

/** A file's bytes must be a real PNG, JPEG or PDF (no schema can say so): documents sent as `content` are sent as text; ids made distinct. */
const sendable = (b: any) =>
  Array.isArray(b?.documents)
    ? {
        ...b,
        documents: b.documents.map((d: any, i: number) =>
          d.text === undefined ? { ...d, id: `${d.id}#${i}`, text: 'x', content: undefined } : { ...d, id: `${d.id}#${i}` },
        ),
      }
    : b;

function requests(p: string, op: Record<string, any>, validOnly = false): fc.Arbitrary<Req> {
  const params = (op.parameters ?? []).map(ref);
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const prm of params.filter((x: any) => x.in === 'path')) {
    const known = prm.name === 'store' ? ['p1', 'p2', '@p2id', 'nope'] : ['d1', 'a/b', 'missing'];
    pathArbs[prm.name] = fc.oneof(
      { arbitrary: fc.constantFrom(...known), weight: 4 },
      { arbitrary: valid(doc, prm.schema) as fc.Arbitrary<string>, weight: 1 },
    );
  }
  // Each query parameter absent, valid or a random string (a cursor is mostly absent: a random one is never valid).
  const queryArbs = Object.fromEntries(
    params
      .filter((x: any) => x.in === 'query')
      .map((x: any) => [
        x.name,
        validOnly
          ? x.name === 'cursor'
            ? fc.constant(undefined)
            : fc.option(
                x.content ? valid(doc, x.content['application/json'].schema, 3).map((v) => JSON.stringify(v)) : valid(doc, x.schema),
                { nil: undefined },
              )
          : fc.oneof(
              { arbitrary: fc.constant(undefined), weight: x.name === 'cursor' ? 6 : 2 },
              // A parameter with `content` travels as JSON (a filter), kept shallow to fit in a URL.
              {
                arbitrary: x.content
                  ? valid(doc, x.content['application/json'].schema, 3).map((v) => JSON.stringify(v))
                  : valid(doc, x.schema),
                weight: 3,
              },
              { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
            ),
      ]),
  );
  const headerArbs = Object.fromEntries(
    params
      .filter((x: any) => x.in === 'header')
      .map((x: any) => [
        x.name,
        x.name === 'X-Svc-Project'
          ? fc.constantFrom('default', 'default', 'other', ...(validOnly ? [] : ['Bad!']))
          : validOnly
            ? fc.uuid()
            : fc.oneof(valid(doc, x.schema), fc.constantFrom('', 'a b', 'k'.repeat(300))),
      ]),
  );
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  return fc.record({
    path: fc.record(pathArbs).map((vals) => p.replace(/\{(\w+)\}/g, (_, k) => (vals[k] === '@p2id' ? '@p2id' : encode(vals[k])))),
    query: fc.record(queryArbs),
    headers: fc.record(headerArbs, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>,
    body: !bodySchema
      ? fc.constant(undefined)
      : validOnly
        ? valid(doc, bodySchema).map(sendable)
        : fc.oneof({ arbitrary: valid(doc, bodySchema).map(sendable), weight: 3 }, { arbitrary: invalid(doc, bodySchema), weight: 2 }),
  });
}

/** What is wrong with a response to `op`, or undefined. */
function problem(op: Record<string, any>, r: { status: number; body: any }): string | undefined {
  if (r.status >= 500) return `server error ${r.status}: ${JSON.stringify(r.body)}`;
  const declared = op.responses[String(r.status)];
  if (!declared) return ANYWHERE.has(r.body?.error?.type) ? undefined : `undeclared status ${r.status}: ${JSON.stringify(r.body)}`;
  const lines = declared.content?.['application/x-ndjson'];
  if (lines) {
    // JSON lines: each line one value of the schema (raw() parsed a body of one line, kept others as text)
    const name = lines.schema.$ref.split('/').pop();
    const values =
      typeof r.body === 'string'
        ? r.body
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : r.body === undefined
          ? []
          : [r.body];
    const errors = values.flatMap((v) => schemas.errors(name, v));
    return errors.length ? `a line does not match ${name}: ${errors.join('; ')}` : undefined;
  }
  const content = declared.content?.['application/json'];
  if (!content) return r.body === undefined ? undefined : `a body where none is declared: ${JSON.stringify(r.body)}`;
  if (content.examples && !(r.body?.error?.type in content.examples) && !ANYWHERE.has(r.body?.error?.type))
    return `error type ${r.body?.error?.type} is not declared under ${r.status}`;
  const name = content.schema.$ref?.split('/').pop();
  const errors = name ? schemas.errors(name, r.body) : typeof r.body === 'object' ? [] : ['not an object'];
  return errors.length ? `body does not match ${name}: ${errors.join('; ')} in ${JSON.stringify(r.body).slice(0, 300)}` : undefined;
}

const ACCEPTED = (status: number) => (status >= 200 && status < 300) || status === 404 || status === 409;

/** Whether every filter of a request is within the operator count no schema can state. */
function filtersInBounds(req: Req): boolean {
  const body = req.body as { filter?: Filter; searches?: Array<{ filter?: Filter }> } | undefined;
  const query = typeof req.query.filter === 'string' ? (JSON.parse(req.query.filter) as Filter) : undefined;
  const filters = [body?.filter, query, ...(Array.isArray(body?.searches) ? body.searches.map((x) => x?.filter) : [])];
  return filters.every((f) => !f || typeof f !== 'object' || filterSize(f).operators <= 256);
}

for (const validOnly of [false, true]) {
  for (const [p, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, any>>(ops)) {
      const what = validOnly ? 'schema-valid requests are accepted' : 'random valid and invalid requests';
      t.test(`${method.toUpperCase()} ${p}: ${what}`, async (t) => {
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(requests(p, op, validOnly), async (req) => {
            if (validOnly) fc.pre(filtersInBounds(req));
            const qs = new URLSearchParams(
              Object.entries(req.query)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]): [string, string] => [k, String(v)]),
            ).toString();
            const r = await api.raw(method.toUpperCase(), `${req.path.replace('@p2id', p2id)}${qs ? `?${qs}` : ''}`, req.body, req.headers);
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (process.env.SVC_PROP_DEBUG && r.status >= 400)
              console.error(method, req.path, JSON.stringify(req.body)?.slice(0, 80), r.body?.error?.message);
            const wrong =
              problem(op, r) ??
              (validOnly && !ACCEPTED(r.status) ? `a schema-valid request refused: ${JSON.stringify(r.body)}` : undefined);
            if (wrong)
              throw new Error(
                `${method.toUpperCase()} ${req.path}?${qs} ${JSON.stringify(req.headers)} ${JSON.stringify(req.body)?.slice(0, 300)}: ${wrong}`,
              );
            if ((method === 'delete' && r.status === 204) || (p.endsWith('/delete') && r.status === 200)) await fixtures();
          }),
          { numRuns: RUNS, seed: SEED },
        );
        t.pass(`${RUNS} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      });
    }
  }
}
