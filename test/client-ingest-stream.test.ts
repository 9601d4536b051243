// documents.ingestStream against a real server behind the fault proxy: batches of at most
// batchSize documents and batchBytes of body, one Idempotency-Key per batch (the same for the same
// batch and scope, so retries and re-runs are replayed, never applied twice), bounded concurrency,
// progress and totals, per-id ordering, a too-large document refused before sending, stop and resume.
import t from 'tap';
import {
  type DocumentInput,
  DocumentTooLargeError,
  type IngestProgress,
  InvalidRequestError,
  MAX_REQUEST_BYTES,
  Svc,
} from '../src/client/index.js';
import { type Fault, FaultProxy, json503, PASS } from './helpers/fault-proxy.js';
import { startTestServer } from './helpers/server.js';

const { server, api } = await startTestServer(t, { threads: 1 });
const proxy = await FaultProxy.start(t, server.url);
const svc = new Svc({ baseUrl: proxy.url, env: {}, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
const isIngest = (e: { method: string; path: string }) => e.method === 'POST' && e.path.endsWith('/documents');

const docs = (n: number, prefix = 'd', from = 0): DocumentInput[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${from + i}`,
    text: `Document ${prefix}${from + i} is about rivers and hills.`,
    metadata: { i: from + i },
  }));

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const x of items) {
    await new Promise((r) => setImmediate(r));
    yield x;
  }
}

async function allDocs(store: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const d of svc.documents.iterate(store, { limit: 100 })) out.set(d.id, d.ingested_at);
  return out;
}

t.beforeEach(() => proxy.reset());

t.test('batches by count and by bytes, with totals and progress', async (t) => {
  await svc.stores.create('count');
  const seen: IngestProgress[] = [];
  const totals = await svc.documents.ingestStream('count', slowly(docs(250)), { batchSize: 100, onProgress: (p) => seen.push(p) });
  t.match(totals, { read: 250, documents: 250, batches: 3, replayedBatches: 0, replayedDocuments: 0, stopped: false });
  const sizes = proxy.log.filter(isIngest).map((e) => e.bodyBytes);
  t.equal(sizes.length, 3);
  t.equal(
    totals.bytes,
    sizes.reduce((a, b) => a + b),
    'bytes counts the request bodies',
  );
  t.equal(seen.length, 3, 'progress after each batch');
  t.ok(
    seen.every((p, i) => i === 0 || p.documents > seen[i - 1].documents),
    'documents only grow',
  );
  t.equal(seen.at(-1)!.documents, 250);
  t.equal((await api.get('/stores/count')).n_docs, 250);

  proxy.reset();
  await svc.stores.create('bytes');
  const limit = 1500;
  // one batch in flight: the proxy logs bodies in the order they were cut (with several, a short last batch can finish first)
  const byBytes = await svc.documents.ingestStream('bytes', docs(60), { batchBytes: limit, concurrency: 1 });
  const bodies = proxy.log.filter(isIngest).map((e) => e.bodyBytes);
  t.ok(
    bodies.every((b) => b <= limit),
    `every body within ${limit} bytes (${bodies.join(', ')})`,
  );
  t.ok(
    bodies.slice(0, -1).every((b) => b > limit - 120),
    'batches are filled before being cut',
  );
  t.equal(byBytes.documents, 60);
  t.equal((await api.get('/stores/bytes')).n_docs, 60);
});

t.test('a document over 32 MB is refused before anything of it is sent', async (t) => {
  await svc.stores.create('huge');
  const huge = { id: 'the-big-one', text: 'x'.repeat(MAX_REQUEST_BYTES) };
  const err = await svc.documents.ingestStream('huge', [...docs(3), huge, ...docs(3, 'late')], { batchSize: 2 }).catch((e: unknown) => e);
  t.ok(err instanceof DocumentTooLargeError);
  t.match(err, { status: 413, type: 'document_too_large', message: /'the-big-one'.*32\.0 MB/, fix: /split 'the-big-one'/ });
  const sent = proxy.log.filter(isIngest);
  t.equal(sent.length, 1, 'only the full batch before it was sent');
  t.ok(sent.every((e) => e.bodyBytes < 10_000));
  t.equal((await api.get('/stores/huge')).n_docs, 2);
});

t.test('server refusals name the document in the input', async (t) => {
  await svc.stores.create('refused');
  const input = [...docs(3), { id: 'blank', text: '   ' }, ...docs(2, 'after')];
  const err = await svc.documents.ingestStream('refused', input, { batchSize: 10 }).catch((e: unknown) => e);
  t.ok(err instanceof InvalidRequestError);
  t.match((err as Error).message, /documents\[3\] is document 'blank', #4 of the input/);
  await t.rejects(svc.documents.ingestStream('refused', [{ text: 'no id' } as DocumentInput]), {
    name: 'InvalidRequestError',
    message: /#1 of the input has no id/,
  });
  await t.rejects(svc.documents.ingestStream('refused', [], { batchSize: 1001 }), InvalidRequestError);
});

t.test('concurrency is bounded', async (t) => {
  await svc.stores.create('conc');
  let waiting: Array<() => void> = [];
  proxy.rule = (req) => {
    if (!isIngest(req)) return PASS;
    // Hold each batch until three are in flight (or a while has passed): a client that allowed
    // more than three would show it in maxInFlight.
    return new Promise<Fault>((resolve) => {
      waiting.push(() => resolve(PASS));
      if (waiting.length >= 3) {
        for (const go of waiting) go();
        waiting = [];
      } else setTimeout(() => resolve(PASS), 5000).unref();
    });
  };
  const totals = await svc.documents.ingestStream('conc', docs(90), { batchSize: 10, concurrency: 3 });
  t.equal(totals.batches, 9);
  t.equal(proxy.maxInFlight, 3, 'three batches in flight at most, and three at once');
});

t.test('faults on the way: every document ingested, no batch applied twice', async (t) => {
  await svc.stores.create('faulty');
  // Per batch: the first attempt is applied but its reply dropped (or, for some, dropped before it
  // reaches the server), the second gets a 503, the third passes.
  const attempts = new Map<string, number>();
  proxy.rule = (req) => {
    if (!isIngest(req)) return PASS;
    const key = req.headers['idempotency-key'] as string;
    const k = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, k);
    if (k === 1) return attempts.size % 3 === 0 ? { kind: 'drop' } : { kind: 'drop-after' };
    return k === 2 ? json503('0') : PASS;
  };
  const totals = await svc.documents.ingestStream('faulty', docs(200), { batchSize: 25, concurrency: 2 });
  t.match(totals, { documents: 200, batches: 8 });
  const applied = new Map<string, number>();
  for (const e of proxy.log.filter(isIngest)) if (e.upstream === 200 && !e.replayed) applied.set(e.key!, (applied.get(e.key!) ?? 0) + 1);
  t.equal(applied.size, 8, 'eight distinct keys applied');
  t.ok(
    [...applied.values()].every((c) => c === 1),
    'each exactly once',
  );
  t.ok(
    proxy.log.filter(isIngest).some((e) => e.replayed),
    'some retries were answered by replay',
  );
  const stored = await allDocs('faulty');
  t.equal(stored.size, 200);
  t.equal((await api.get('/stores/faulty')).n_docs, 200);
});

t.test('the same id later in the input wins, even across concurrent batches', async (t) => {
  await svc.stores.create('order');
  proxy.rule = (req) => (isIngest(req) && req.n % 2 === 1 ? new Promise((r) => setTimeout(() => r(PASS), 150)) : PASS);
  const input = [
    { id: 'a', text: 'First version of a.' },
    ...docs(3),
    { id: 'a', text: 'Second version of a.' },
    ...docs(3, 'x'),
    { id: 'a', text: 'Third version of a.' },
  ];
  const totals = await svc.documents.ingestStream('order', input, { batchSize: 2, concurrency: 4 });
  t.equal(totals.documents, 9);
  t.equal((await svc.documents.get('order', 'a', { include_text: true })).text, 'Third version of a.');
  for (const e of proxy.log.filter(isIngest)) {
    const ids = (JSON.parse(e.body.toString()) as { documents: DocumentInput[] }).documents.map((d) => d.id);
    t.equal(new Set(ids).size, ids.length, 'no id twice in one request');
  }
});

t.test('the same scope makes a re-run replay what was done; stop ends cleanly', async (t) => {
  await svc.stores.create('resume');
  const input = docs(120);
  const stop = new AbortController();
  const first = await svc.documents.ingestStream('resume', slowly(input), {
    batchSize: 20,
    concurrency: 1,
    idempotencyScope: 'import-1',
    onProgress: (p) => p.batches === 2 && stop.abort(),
    stop: stop.signal,
  });
  t.match(first, { stopped: true, documents: 40, batches: 2 });
  const before = await allDocs('resume');
  t.equal(before.size, 40, 'stopped after the batches in flight; the partly filled batch was not sent');

  proxy.reset();
  const second = await svc.documents.ingestStream('resume', input, { batchSize: 20, idempotencyScope: 'import-1' });
  t.match(second, { stopped: false, documents: 120, batches: 6, replayedBatches: 2, replayedDocuments: 40 });
  const after = await allDocs('resume');
  t.equal(after.size, 120);
  t.ok(
    [...before].every(([id, at]) => after.get(id) === at),
    'documents of the first run were not written again',
  );

  proxy.reset();
  const fresh = await svc.documents.ingestStream('resume', input, { batchSize: 20 });
  t.equal(fresh.replayedBatches, 0, 'another scope (default: random) ingests again');
  t.equal(new Set(proxy.log.filter(isIngest).map((e) => e.key)).size, 6, 'one key per batch');
});

t.test('an AbortSignal cancels the whole stream', async (t) => {
  await svc.stores.create('cancel');
  const ctl = new AbortController();
  proxy.rule = (req) => {
    if (isIngest(req)) {
      ctl.abort();
      return { kind: 'hang' };
    }
    return PASS;
  };
  await t.rejects(svc.documents.ingestStream('cancel', docs(50), { batchSize: 10, signal: ctl.signal }), { name: 'AbortError' });
});
