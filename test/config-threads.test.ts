// SVC_THREADS: the engine's worker threads. A whole number from 1 to MAX_THREADS, refused otherwise
// with the variable named; unset, one per core. A server started on it runs that many workers (its
// start log says so) and searches as usual. SVC_ENGINE_HUGE_PAGES=0 starts an engine that asks for no
// huge pages (its start log says whether it does).
import { availableParallelism } from 'node:os';
import t from 'tap';
import { startServer } from '../src/api/server.js';
import { ConfigError, loadConfig, MAX_THREADS } from '../src/config.js';
import { nativeHelper } from '../src/engine/runtime/native-helper.js';
import { logCapture, tempDir } from './helpers/server.js';

t.test('SVC_THREADS: a whole number of threads, from 1 to MAX_THREADS', async (t) => {
  t.equal(loadConfig({}).threads, undefined, 'unset: the server takes one per core');
  t.equal(loadConfig({ SVC_THREADS: '1' }).threads, 1);
  t.equal(loadConfig({ SVC_THREADS: String(MAX_THREADS) }).threads, MAX_THREADS);
  for (const bad of ['0', '-2', '1.5', 'two', String(MAX_THREADS + 1)]) {
    t.throws(() => loadConfig({ SVC_THREADS: bad }), { name: ConfigError.name, message: /^SVC_THREADS=/ }, bad);
  }
});

t.test('a server runs the worker threads SVC_THREADS names, and one per core without it', async (t) => {
  for (const [env, want] of [
    [{ SVC_THREADS: '1' }, 1],
    [{}, availableParallelism()],
  ] as const) {
    const log = logCapture();
    const config = loadConfig({ SVC_DATA_DIR: tempDir(t), ...env });
    const server = await startServer({ config, port: 0, host: '127.0.0.1', noAuth: true, logger: log.logger });
    try {
      const started = log.lines.find((l) => l.msg === 'engine started');
      t.equal(started?.threads, want, `${JSON.stringify(env)}: ${want} worker thread(s)`);
      const call = (p: string, body: unknown) =>
        fetch(server.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      t.equal((await call('/stores', { name: 'one' })).status, 201);
      const ingest = await call('/stores/one/documents', { documents: [{ id: 'a', text: 'Threads\nOne worker thread is enough.' }] });
      t.equal(ingest.status, 200);
      const found = (await (await call('/stores/one/search', { query: 'worker thread', max_results: 1 })).json()) as {
        passages: Array<{ doc_id: string }>;
      };
      t.equal(found.passages[0]?.doc_id, 'a', 'searches as usual');
    } finally {
      await server.close();
    }
  }
});

t.test("a server's engine asks for huge pages unless SVC_ENGINE_HUGE_PAGES=0, and logs which", async (t) => {
  const helper = nativeHelper().helper?.hugePages !== undefined;
  for (const [env, want] of [
    [{ SVC_ENGINE_HUGE_PAGES: '0' }, false],
    [{}, helper],
  ] as const) {
    const log = logCapture();
    const config = loadConfig({ SVC_DATA_DIR: tempDir(t), SVC_THREADS: '1', ...env });
    const server = await startServer({ config, port: 0, host: '127.0.0.1', noAuth: true, logger: log.logger });
    try {
      t.equal(log.lines.find((l) => l.msg === 'engine started')?.hugePages, want, `${JSON.stringify(env)}: ${want}`);
    } finally {
      await server.close();
    }
  }
});
