// Retries, proven through a fault-injecting proxy in front of a real server: 429 with Retry-After is
// honoured on every operation; 503, 500 and dropped connections are retried for idempotent operations
// only (GET, DELETE, ingest with an Idempotency-Key, search); a retried ingest is replayed by the
// server, never applied twice; attempts are bounded, the deadline holds and an AbortSignal cancels.
import t from 'tap';
import {
  ConnectionError,
  DeadlineExceededError,
  InvalidRequestError,
  RateLimitedError,
  type RetryEvent,
  ServiceUnavailableError,
  StoreNotFoundError,
  Svc,
} from '../src/client/index.js';
import { type Fault, FaultProxy, json429, json503, PASS } from './helpers/fault-proxy.js';
import { startTestServer } from './helpers/server.js';

const { server, api } = await startTestServer(t, { threads: 1 });
const proxy = await FaultProxy.start(t, server.url);
const retries: RetryEvent[] = [];
const svc = new Svc({ baseUrl: proxy.url, env: {}, retry: { baseDelayMs: 5, maxDelayMs: 20, onRetry: (e) => retries.push(e) } });
await api.post('/stores', { name: 'r' });

/** The first `n` requests matching `match` get `fault`; the rest pass. */
function firstN(n: number, fault: Fault, match: (method: string, path: string) => boolean = () => true) {
  let left = n;
  return ({ method, path }: { method: string; path: string }): Fault => (match(method, path) && left-- > 0 ? fault : PASS);
}

t.beforeEach(() => {
  proxy.reset();
  retries.length = 0;
});

t.test('429 with Retry-After is retried after the interval, on every operation', async (t) => {
  proxy.rule = firstN(1, json429('1'));
  const s = await svc.stores.create('after-429');
  t.equal(s.name, 'after-429', 'a create (not idempotent) is retried on 429: the server refused it before doing anything');
  t.equal(proxy.log.length, 2);
  t.equal(retries.length, 1);
  t.ok(retries[0].delayMs >= 1000, `waited at least Retry-After (${retries[0].delayMs} ms)`);
  t.ok(retries[0].error instanceof RateLimitedError);
});

t.test('503 and dropped connections are retried for GET and DELETE', async (t) => {
  proxy.rule = firstN(2, json503('1'));
  t.equal((await svc.stores.get('r', { timeoutMs: 10_000 })).name, 'r');
  t.equal(proxy.log.length, 3, 'two 503s, then through');
  t.ok(
    retries.every((r) => r.delayMs >= 1000),
    'Retry-After honoured',
  );

  proxy.reset(firstN(2, { kind: 'drop' }));
  t.equal((await svc.stores.list()).stores.length >= 1, true);
  t.equal(proxy.log.length, 3, 'two drops, then through');

  await api.post('/stores', { name: 'doomed' });
  proxy.reset(firstN(1, { kind: 'drop-after' }));
  await svc.stores.delete('doomed');
  t.same(
    proxy.log.map((e) => e.upstream),
    [204, 404],
    'the first delete was applied, its reply lost; the retry found it gone',
  );
  await t.rejects(svc.stores.get('doomed'), StoreNotFoundError);
});

t.test('search is retried: it changes nothing', async (t) => {
  proxy.rule = firstN(1, { kind: 'drop' });
  const r = await svc.search('r', 'anything');
  t.type(r.confidence, 'number');
  t.equal(proxy.log.length, 2);
});

t.test('non-idempotent requests are not retried on 503, 500 or a dropped connection', async (t) => {
  proxy.rule = firstN(1, json503('1'));
  await t.rejects(svc.stores.create('never-503'), ServiceUnavailableError);
  t.equal(proxy.log.length, 1, 'create: one attempt on 503');

  proxy.reset(firstN(1, { kind: 'drop-after' }));
  await t.rejects(svc.stores.create('once'), ConnectionError);
  t.same(
    proxy.log.map((e) => e.upstream),
    [201],
    'create: applied once, not repeated after the dropped reply',
  );

  proxy.reset(firstN(1, { kind: 'drop-after' }));
  await t.rejects(svc.documents.ingest('r', [{ id: 'k0', text: 'No key here.' }], { idempotencyKey: false }), ConnectionError);
  t.equal(proxy.log.length, 1, 'ingest without an Idempotency-Key: one attempt');

  proxy.reset(firstN(1, { kind: 'respond', status: 500, body: { error: { type: 'internal', message: 'boom', fix: 'retry' } } }));
  await t.rejects(svc.documents.ingest('r', [{ id: 'k1', text: 'No key here.' }], { idempotencyKey: false }), {
    name: 'InternalServerError',
    status: 500,
  });
  t.equal(proxy.log.length, 1);
  t.equal(retries.length, 0, 'no retries at all');
});

t.test('client errors are never retried', async (t) => {
  await t.rejects(svc.documents.get('r', 'missing'), { name: 'DocumentNotFoundError' });
  await t.rejects(svc.search('r', { query: ' ' }), InvalidRequestError);
  t.equal(proxy.log.length, 2);
  t.equal(retries.length, 0);
});

t.test('a retried ingest is replayed by the server, not applied twice', async (t) => {
  proxy.rule = firstN(2, { kind: 'drop-after' }, (m, p) => m === 'POST' && p.endsWith('/documents'));
  const docs = [
    { id: 'once-a', text: 'Alpha is ingested once.' },
    { id: 'once-b', text: 'Beta is ingested once.' },
  ];
  const r = await svc.documents.ingest('r', docs);
  t.same(r, { ingested: 2, doc_ids: ['once-a', 'once-b'], replayed: true });
  const sends = proxy.entries('POST', /\/documents$/);
  t.equal(sends.length, 3);
  t.equal(new Set(sends.map((e) => e.key)).size, 1, 'the same Idempotency-Key on every attempt');
  t.same(
    sends.map((e) => [e.upstream, e.replayed]),
    [
      [200, false],
      [200, true],
      [200, true],
    ],
    'applied by the first attempt, replayed after',
  );
  const first = await svc.documents.get('r', 'once-a');
  await svc.documents.ingest('r', docs, { idempotencyKey: sends[0].key });
  t.equal((await svc.documents.get('r', 'once-a')).ingested_at, first.ingested_at, 'a later replay writes nothing');
});

t.test('attempts are bounded and the deadline holds', async (t) => {
  proxy.rule = () => json503('0');
  const err = await svc.stores.get('r', { maxAttempts: 3 }).catch((e: unknown) => e);
  t.ok(err instanceof ServiceUnavailableError, 'the last error is raised');
  t.equal(proxy.log.length, 3, 'three attempts');

  proxy.reset(() => json503('30'));
  const far = await svc.stores.get('r', { timeoutMs: 2000 }).catch((e: unknown) => e);
  t.ok(far instanceof ServiceUnavailableError, 'a Retry-After beyond the deadline ends the call at once');
  t.match(far, { retryAfterMs: 30_000 });
  t.equal(proxy.log.length, 1);

  proxy.reset(() => ({ kind: 'hang' }));
  const hung = await svc.stores.get('r', { timeoutMs: 300 }).catch((e: unknown) => e);
  t.ok(hung instanceof DeadlineExceededError, 'no answer within timeoutMs');
  t.match(hung, { type: 'deadline_exceeded', fix: /timeoutMs/ });
});

t.test('an AbortSignal cancels a request in flight and a backoff wait', async (t) => {
  proxy.rule = () => ({ kind: 'hang' });
  const ctl = new AbortController();
  const pending = svc.stores.get('r', { signal: ctl.signal });
  setTimeout(() => ctl.abort(), 50);
  await t.rejects(pending, { name: 'AbortError' });

  proxy.reset(() => json503('30'));
  const waiting = new AbortController();
  const slow = new Svc({ baseUrl: proxy.url, env: {}, retry: { onRetry: () => waiting.abort(new Error('stop waiting')) } });
  await t.rejects(slow.stores.get('r', { signal: waiting.signal }), { message: 'stop waiting' }, 'aborted during the Retry-After wait');
  t.equal(proxy.log.length, 1);
  await t.rejects(svc.stores.get('r', { signal: AbortSignal.abort() }), { name: 'AbortError' }, 'an aborted signal sends nothing');
  t.equal(proxy.log.length, 1);
});
