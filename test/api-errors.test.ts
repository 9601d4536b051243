// Every error of the HTTP layer comes as {error: {type, message, fix}} from the one error table:
// unknown routes, wrong methods, rate limiting with Retry-After, and the served OpenAPI document
// validated as 3.1 whose error responses list exactly the table's types. Malformed, oversized and
// hostile requests: hostile-input.test.ts.

import zlib from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import t, { type Test } from 'tap';
import { ERRORS, type ErrorBody } from '../src/errors.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);
const doc = await api.get('/openapi.json');
const schemas = new SchemaChecker(doc);
await api.post('/stores', { name: 'e' });

function isErrorBody(t: Test, r: { status: number; body: any }, status: number, type: string): void {
  t.equal(r.status, status, `status ${status}`);
  t.same(schemas.errors('Error', r.body), [], 'error body matches the Error schema');
  t.equal(r.body?.error?.type, type);
  t.ok(r.body?.error?.fix, 'has a fix');
}

t.test('the OpenAPI document is valid OpenAPI 3.1 and lists the error table', async (t) => {
  const v = new Validator();
  const res = await v.validate(doc);
  t.same(res, { valid: true });
  t.equal(v.version, '3.1');
  t.equal(doc.openapi, '3.1.0');
  const declared = new Set<string>();
  for (const ops of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(ops)) {
      for (const [status, resp] of Object.entries<any>(op.responses)) {
        for (const name of Object.keys(resp.content?.['application/json']?.examples ?? {})) {
          declared.add(name);
          t.equal(String((ERRORS as any)[name].status), status, `${name} declared under its status`);
        }
      }
    }
  }
  for (const type of [
    'invalid_request',
    'unauthorized',
    'store_not_found',
    'store_already_exists',
    'document_not_found',
    'document_too_large',
    'rate_limited',
    'internal',
  ]) {
    t.ok(declared.has(type), `spec error ${type} is declared`);
  }
  const spec = [
    '/stores',
    '/stores/{store}',
    '/stores/{store}/documents',
    '/stores/{store}/documents/{id}',
    '/stores/{store}/search',
    '/health',
  ];
  for (const p of spec) t.ok(doc.paths[p], `path ${p}`);
});

t.test('unknown routes and methods', async (t) => {
  isErrorBody(t, await api.raw('GET', '/nope'), 404, 'route_not_found');
  isErrorBody(t, await api.raw('GET', '/../x'), 404, 'route_not_found');
  const r = await api.raw('PUT', '/stores/e');
  isErrorBody(t, r, 405, 'method_not_allowed');
  t.match(r.headers.get('allow'), /GET.*DELETE/);
  const outside = await fetch(api.base.replace('/v1', '/v2/stores'));
  t.equal(outside.status, 404);
  t.equal(((await outside.json()) as ErrorBody).error.type, 'route_not_found');
});

// Malformed, oversized and compression-bomb bodies: see the matrix in hostile-input.test.ts.
t.test('compressed bodies are accepted', async (t) => {
  for (const [encoding, zip] of [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const) {
    const body = zip(Buffer.from(JSON.stringify({ documents: [{ id: `z-${encoding}`, text: 'Compressed body text.' }] })));
    t.equal((await api.raw('POST', '/stores/e/documents', body, { 'content-encoding': encoding })).status, 200, encoding);
  }
});

t.test('rate limit: 429 rate_limited with Retry-After, per project', async (t) => {
  const { api } = await startTestServer(t, { rateLimit: 5 });
  const replies = await Promise.all(Array.from({ length: 12 }, () => api.raw('GET', '/stores')));
  const limited = replies.filter((r) => r.status === 429);
  t.ok(limited.length >= 6, `${limited.length} of 12 limited`);
  isErrorBody(t, limited[0], 429, 'rate_limited');
  t.ok(Number(limited[0].headers.get('retry-after')) >= 1, 'Retry-After in seconds');
  t.equal((await api.with({ 'X-Svc-Project': 'other' }).raw('GET', '/stores')).status, 200, 'another project is not limited');
  t.equal((await api.raw('GET', '/health')).status, 200, 'health is not limited');
});

t.test('request ids: echoed when sane, generated otherwise', async (t) => {
  const r = await api.raw('GET', '/stores', undefined, { 'x-request-id': 'abc-123' });
  t.equal(r.headers.get('x-request-id'), 'abc-123');
  const g = await api.raw('GET', '/stores', undefined, { 'x-request-id': 'bad id with spaces' });
  t.match(g.headers.get('x-request-id'), /^req_[0-9a-f]{32}$/);
});

t.test('health', async (t) => {
  const h = await api.get('/health');
  t.same(schemas.errors('Health', h), []);
  t.match(h, { status: 'ok', version: /^\d+\.\d+\.\d+/, engine: /svc-engine/ });
});

t.test('an unexpected failure is 500 internal with the request id, and leaks nothing', async (t) => {
  const { createApp } = await import('../src/api/app.js');
  const { KeyRing } = await import('../src/store/keys.js');
  const { pino } = await import('pino');
  const http = await import('node:http');
  const services: any = {
    version: '0.0.0',
    engine: { id: 'svc-engine/test' },
    state: 'ok',
    openapi: doc,
    keys: new KeyRing('/nonexistent-svc-test'),
    registry: {
      list: () => {
        throw new TypeError('secret internals exploded');
      },
    },
  };
  const app = createApp({
    services,
    logger: pino({ level: 'silent' }),
    auth: { noAuth: true, defaultProject: 'default', keys: services.keys },
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => server.close());
  const port = (server.address() as any).port;
  const res = await fetch(`http://127.0.0.1:${port}/v1/stores`, { headers: { 'x-request-id': 'trace-me' } });
  const body = (await res.json()) as ErrorBody;
  t.equal(res.status, 500);
  t.equal(body.error.type, 'internal');
  t.match(body.error.message, /trace-me/);
  t.notMatch(JSON.stringify(body), /secret internals/);
  t.match(body.error.fix, /request id/);
});
