// The client library against a real server: every operation of the served document through its
// typed method (responses checked against the document's schemas), typed errors carrying status,
// type, message, fix and request id, pagination iterators, getOrCreate under a race, ids that need
// encoding, and configuration from the environment.
import t from 'tap';
import {
  ConfigError,
  ConnectionError,
  DocumentNotFoundError,
  InvalidRequestError,
  type OperationId,
  StoreAlreadyExistsError,
  StoreNotFoundError,
  Svc,
  SvcError,
  UnauthorizedError,
} from '../src/client/index.js';
import { KeyRing } from '../src/store/keys.js';
import { unusedPort } from './helpers/cli.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { server, api } = await startTestServer(t, { threads: 1 });
const schemas = new SchemaChecker(await api.get('/openapi.json'));
const svc = new Svc({ baseUrl: server.url, env: {} });

t.test('every operation of the document has a typed method whose answer matches its schema', async (t) => {
  const doc = await svc.openapi();
  t.same(schemas.errors('Store', await svc.stores.create('ops')), []);
  await svc.documents.ingest('ops', [{ id: 'x', text: 'Rivers run to the sea.', metadata: { team: 'geo', n: 1 } }]);
  const calls: Record<OperationId, () => Promise<[string | undefined, unknown]>> = {
    createStore: async () => ['Store', await svc.stores.create('ops-2')],
    listStores: async () => ['StoreList', await svc.stores.list({ limit: 1 })],
    getStore: async () => ['Store', await svc.stores.get('ops')],
    deleteStore: async () => [undefined, await svc.stores.delete('ops-2')],
    compactStore: async () => ['StoreCompaction', await svc.stores.compact('ops')],
    ingestDocuments: async () => [
      'IngestResponse',
      (({ replayed: _r, ...body }) => body)(await svc.documents.ingest('ops', [{ id: 'y', text: 'Mountains rise.' }])),
    ],
    listDocuments: async () => ['DocumentList', await svc.documents.list('ops', { limit: 1, filter: { n: { $gte: 1 } } })],
    getDocument: async () => ['DocumentInfo', await svc.documents.get('ops', 'x', { include_text: true })],
    deleteDocument: async () => [undefined, await svc.documents.delete('ops', 'y')],
    patchDocument: async () => ['DocumentInfo', await svc.documents.patch('ops', 'x', { n: 2, gone: null })],
    deleteDocuments: async () => [
      'DeleteDocumentsResponse',
      { deleted: await svc.documents.deleteMany('ops', { filter: { team: { $in: ['nobody'] } } }) },
    ],
    search: async () => ['SearchResult', await svc.search('ops', { query: 'rivers', return_trace: true, filter: { team: 'geo' } })],
    searchBatch: async () => ['SearchBatchResponse', { results: await svc.searchBatch('ops', ['rivers', { query: 'x', max_hops: 0 }]) }],
    health: async () => ['Health', await svc.health()],
    livez: async () => ['Liveness', await svc.livez()],
    exportDocuments: async () => {
      for await (const d of svc.documents.export('ops')) return ['ExportedDocument', d];
      throw new Error('the export is empty');
    },
    openapi: async () => [undefined, await svc.openapi()],
  };
  const served = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
    Object.values(item).map((o) => o.operationId),
  );
  t.same(Object.keys(calls).sort(), served.sort(), 'this test calls every served operation');
  for (const [op, call] of Object.entries(calls)) {
    const [schema, body] = await call();
    if (schema) t.same(schemas.errors(schema, body), [], `${op}: response matches ${schema}`);
    else if (op.startsWith('delete')) t.equal(body, undefined, `${op}: resolves with nothing`);
  }
  const found = await svc.search('ops', 'rivers');
  t.equal(found.passages[0]?.doc_id, 'x', 'search takes a plain query string too');
});

t.test('errors are typed and carry status, type, message, fix and the request id', async (t) => {
  const notFound = await svc.stores.get('missing').catch((e: unknown) => e);
  t.ok(notFound instanceof StoreNotFoundError && notFound instanceof SvcError);
  t.match(notFound, { status: 404, type: 'store_not_found', message: /missing/, fix: /svc stores create/, requestId: /^req_/ });
  await svc.stores.create('errs');
  await t.rejects(svc.stores.create('errs'), StoreAlreadyExistsError);
  const bad = await svc.stores.create('Not A Name').catch((e: unknown) => e);
  t.ok(bad instanceof InvalidRequestError);
  t.match(bad, { status: 400, fix: /\[a-z0-9-_\]/ });
  await t.rejects(svc.documents.get('errs', 'nope'), DocumentNotFoundError);
  await t.rejects(svc.documents.delete('errs', 'nope'), DocumentNotFoundError, 'a delete of what never existed still raises');
  await t.rejects(svc.search('errs', { query: 'x', max_hops: 9 }), { name: 'InvalidRequestError', status: 400, fix: /1 to 8/ });
  await t.rejects(svc.documents.get('errs', ''), InvalidRequestError, 'an empty id is refused before sending');
});

t.test('ids that need encoding reach the right document', async (t) => {
  await svc.stores.create('enc');
  const ids = ['a/b', '100%', 'q?x=1#f', '...', '.x', '%2e%2e', 'ünï-😀', 'sp ace'];
  await svc.documents.ingest(
    'enc',
    ids.map((id) => ({ id, text: `Text of ${id}.` })),
  );
  for (const id of ids) t.equal((await svc.documents.get('enc', id, { include_text: true })).text, `Text of ${id}.`, JSON.stringify(id));
  await svc.documents.delete('enc', 'a/b');
  await t.rejects(svc.documents.get('enc', 'a/b'), DocumentNotFoundError);
});

t.test('iterators walk every page', async (t) => {
  await svc.stores.create('pages');
  await svc.documents.ingest(
    'pages',
    Array.from({ length: 45 }, (_, i) => ({ id: `p${i}`, text: `Page document ${i}.` })),
  );
  const seen: string[] = [];
  for await (const d of svc.documents.iterate('pages', { limit: 10 })) seen.push(d.id);
  t.equal(seen.length, 45);
  t.equal(new Set(seen).size, 45, 'each document once');
  t.equal(seen[0], 'p44', 'most recent first');
  const names: string[] = [];
  for await (const s of svc.stores.iterate({ limit: 2 })) names.push(s.name);
  t.ok(names.includes('pages') && names.includes('enc') && names.length === new Set(names).size, `every store once (${names.length})`);
  let fetched = 0;
  for await (const _ of svc.documents.iterate('pages', { limit: 5 })) if (++fetched === 3) break;
  t.equal(fetched, 3, 'breaking out stops the walk');
});

t.test('getOrCreate never raises store_already_exists, also when callers race', async (t) => {
  const clients = Array.from({ length: 8 }, () => new Svc({ baseUrl: server.url, env: {} }));
  const stores = await Promise.all(clients.map((c) => c.stores.getOrCreate('raced')));
  t.equal(new Set(stores.map((s) => s.id)).size, 1, 'all got the same store');
  t.equal((await svc.stores.getOrCreate('raced')).id, stores[0].id, 'an existing store is returned');
  await svc.stores.delete('raced');
  const again = await svc.stores.getOrCreate('raced');
  t.not(again.id, stores[0].id, 'a deleted store is created anew');
});

t.test('configuration: environment, options, and a wrong base URL', async (t) => {
  const fromEnv = new Svc({ env: { SVC_BASE_URL: `${server.url}/` } });
  t.equal(fromEnv.baseUrl, server.url, 'SVC_BASE_URL, trailing slash dropped');
  t.equal((await fromEnv.health()).status, 'ok');
  t.equal(new Svc({ env: {} }).baseUrl, 'http://127.0.0.1:8080/v1', 'the default server address');
  t.throws(() => new Svc({ baseUrl: server.url.replace(/\/v1$/, '') }), ConfigError);
  t.throws(() => new Svc({ baseUrl: 'not a url' }), { name: 'ConfigError', fix: /SVC_BASE_URL/ });
  t.throws(() => new Svc({ baseUrl: server.url, retry: { maxAttempts: 0 } }), ConfigError);
  const gone = new Svc({ baseUrl: `http://127.0.0.1:${await unusedPort()}/v1`, retry: { maxAttempts: 2, baseDelayMs: 1 } });
  const err = await gone.stores.list().catch((e: unknown) => e);
  t.ok(err instanceof ConnectionError, 'no server: ConnectionError');
  t.match(err, { status: 0, type: 'connection_failed', message: /ECONNREFUSED/, fix: /SVC_BASE_URL/ });
  const retried: number[] = [];
  const port = await unusedPort();
  const counted = (retryRefused?: boolean) =>
    new Svc({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      retry: { maxAttempts: 3, baseDelayMs: 1, retryRefused, onRetry: (e) => retried.push(e.attempt) },
    });
  await t.rejects(counted().stores.list(), ConnectionError);
  t.same(retried, [1, 2], 'a refused connection is retried by default (a server restarting)');
  retried.length = 0;
  const refused = await counted(false)
    .stores.list()
    .catch((e: unknown) => e);
  t.match(refused, { type: 'connection_failed', fix: /Nothing answers at .*svc serve.*SVC_BASE_URL/ });
  t.same(retried, [], 'with retryRefused: false, not at all (the CLI fails at once)');
  const blocked = await new Svc({ baseUrl: 'http://127.0.0.1:1/v1', retry: { onRetry: (e) => retried.push(e.attempt) } }).stores
    .list()
    .catch((e: unknown) => e);
  t.match(blocked, { type: 'connection_failed', message: /bad port/, fix: /port browsers block/ });
  t.same(retried, [], 'a port fetch refuses to use is never retried');
});

t.test('project header with --no-auth, API key with auth', async (t) => {
  const acme = new Svc({ baseUrl: server.url, env: {}, project: 'acme' });
  await acme.stores.create('only-acme');
  await t.rejects(svc.stores.get('only-acme'), StoreNotFoundError, 'another project does not see it');
  t.equal((await acme.stores.get('only-acme')).name, 'only-acme');

  const authed = await startTestServer(t, { noAuth: false, threads: 1 });
  const { key } = new KeyRing(authed.dataDir).create('team');
  const keyed = new Svc({ env: { SVC_BASE_URL: authed.server.url, SVC_API_KEY: key } });
  t.equal((await keyed.stores.create('secured')).name, 'secured');
  const anon = new Svc({ baseUrl: authed.server.url, env: {} });
  const err = await anon.stores.list().catch((e: unknown) => e);
  t.ok(err instanceof UnauthorizedError);
  t.match(err, { status: 401, fix: /svc keys create/ });
  t.throws(() => new Svc({ baseUrl: server.url, apiKey: 'has space' }), ConfigError);
});
