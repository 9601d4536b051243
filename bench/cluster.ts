// `npm run bench -- cluster [--docs N] [--queries N] [--kill-docs N]`: svc as a cluster (issue 33,
// docs/cluster.md) against one node, on this machine. Three nats-server processes (clustered,
// JetStream) and three `svc serve` children with SVC_NATS_URL and SVC_REPLICAS=2, beside one
// single-node `svc serve`, all --no-auth. Measures, in one run:
// 1. ingest documents/s of the wiki-pool (batches of 1000, two in flight) through node 1, and of the
//    single node; search p50/p99 (round trip) of hotpotqa-dev questions round-robin over the three
//    nodes, and on the single node; how many results are the same passages as the single node's;
//    search p50/p99 through a node holding the store and through the one that forwards; and, for the
//    floor of that comparison, a second single node given the same batches the same way;
// 2. kill -9 of a node holding the store during concurrent ingest into a second store: every
//    acknowledged document is then exported through the others, searches keep answering meanwhile;
//    the killed node restarted catches up and serves the same results;
// 3. catch-up: a node holding the wiki-pool store restarted with an empty data dir (same node id)
//    until its /v1/health is 200 and it answers as the others.
// `--logs <dir>` keeps each server's debug log. Figures go to stdout as tables; bench/RESULTS.md and docs/cluster.md keep a run's.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { placeReplicas } from '../src/cluster/placement.js';
import { startNatsCluster } from '../test/helpers/nats.js';
import { fmt, machineLine, percentile, REPO_DIR, readJsonl, SHARED_BENCH, suiteQueries, table } from './bench-util.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const N_DOCS = arg('docs', 42_708);
const N_QUERIES = arg('queries', 261);
const KILL_DOCS = arg('kill-docs', 5000);
/** `--logs <dir>`: each server's debug log kept there (else servers log warnings to stderr). */
const LOGS = process.argv.includes('--logs') ? process.argv[process.argv.indexOf('--logs') + 1] : undefined;

interface Doc {
  id: string;
  text: string;
  metadata?: Record<string, unknown>;
}
const corpus = readJsonl<Doc>(path.join(SHARED_BENCH, 'wiki-pool', 'corpus.jsonl')).slice(0, N_DOCS);
const queries = suiteQueries('hotpotqa-dev', N_QUERIES);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-cluster-'));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

interface Node {
  name: string;
  base: string;
  child: ChildProcess;
  dataDir: string;
  env: Record<string, string>;
  port: number;
}

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${base}: the server exited`);
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function start(name: string, env: Record<string, string>, port?: number): Promise<Node> {
  const dataDir = path.join(work, name);
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'svc.js'), 'serve', '--no-auth', '--port', String(p)], {
    env: { ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG: LOGS ? 'debug' : 'warn', ...env },
    stdio: ['ignore', LOGS ? fs.openSync(path.join(LOGS, `${name}.log`), 'a') : 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${p}/v1`;
  await waitHealthy(base, child);
  return { name, base, child, dataDir, env, port: p };
}

async function stopNode(n: Node, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (n.child.exitCode !== null || n.child.signalCode !== null) return;
  const exited = new Promise((r) => n.child.once('exit', r));
  n.child.kill(signal);
  await exited;
}

/** POST/GET JSON; a 429 waits its Retry-After and goes again (not timed by the callers that time). */
async function call(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  for (;;) {
    const r = await fetch(base + p, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status === 429) {
      await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get('retry-after') ?? 1)));
      continue;
    }
    return { status: r.status, body: text ? (p.endsWith('/export') ? text : JSON.parse(text)) : undefined };
  }
}

async function ingest(bases: string[], store: string, docs: Doc[], inFlight = 2): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async (_, w) => {
      for (let i = next; next < docs.length; i = next) {
        next += 1000;
        const r = await call(bases[(i / 1000 + w) % bases.length], 'POST', `/stores/${store}/documents`, {
          documents: docs.slice(i, i + 1000),
        });
        if (r.status !== 200) throw new Error(`ingest: ${r.status} ${JSON.stringify(r.body)}`);
      }
    }),
  );
  return docs.length / ((performance.now() - started) / 1000);
}

type Result = string[];
async function searchAll(bases: string[], store: string): Promise<{ ms: number[]; results: Result[] }> {
  const ms: number[] = [];
  const results: Result[] = [];
  for (const [i, q] of queries.entries()) {
    const t0 = performance.now();
    const r = await call(bases[i % bases.length], 'POST', `/stores/${store}/search`, { query: q.query });
    ms.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`search: ${r.status} ${JSON.stringify(r.body)}`);
    results.push(r.body.passages.map((p: { doc_id: string; start: number }) => `${p.doc_id}@${p.start}`));
  }
  return { ms, results };
}

const same = (a: Result[], b: Result[]) => a.filter((r, i) => JSON.stringify(r) === JSON.stringify(b[i])).length;

/** Each question whose passages differ, with both lists (doc_id@start), so a difference can be read. */
function differences(label: string, a: Result[], b: Result[]): void {
  for (const [i, r] of a.entries())
    if (JSON.stringify(r) !== JSON.stringify(b[i]))
      console.log(`${label} differs on "${queries[i].query}":\n  ${r.join(' ')}\n  ${b[i].join(' ')}`);
}

console.log(machineLine());
console.log(`cluster bench: ${corpus.length} documents, ${queries.length} hotpotqa-dev questions, ${KILL_DOCS} documents during the kill`);
const nats = await startNatsCluster(work);
const clusterEnv = (i: number) => ({ SVC_NATS_URL: nats.urls, SVC_REPLICAS: '2', SVC_NODE_TTL_S: '5', SVC_NODE_ID: `node-${i}` });
try {
  // 1. one node, then the cluster
  const single = await start('single', {});
  await call(single.base, 'POST', '/stores', { name: 'wiki' });
  const singleIngest = await ingest([single.base], 'wiki', corpus);
  const singleSearch = await searchAll([single.base], 'wiki');
  await stopNode(single);
  // the floor: a second single node given the same batches the same way
  const again = await start('single-again', {});
  await call(again.base, 'POST', '/stores', { name: 'wiki' });
  await ingest([again.base], 'wiki', corpus);
  const againSearch = await searchAll([again.base], 'wiki');
  await stopNode(again);
  differences('a second single node', againSearch.results, singleSearch.results);

  const nodes: Node[] = [];
  for (const i of [1, 2, 3]) nodes.push(await start(`node-${i}`, clusterEnv(i)));
  const bases = nodes.map((n) => n.base);
  await call(bases[0], 'POST', '/stores', { name: 'wiki' });
  const clusterIngest = await ingest([bases[0]], 'wiki', corpus);
  const clusterSearch = await searchAll(bases, 'wiki');
  const p = (xs: number[], q: number) => fmt(percentile(xs, q), 1);
  console.log(
    table(
      ['setting', 'ingest docs/s', 'search p50 ms', 'p99 ms', 'same passages as one node'],
      [
        ['one node', fmt(singleIngest, 0), p(singleSearch.ms, 50), p(singleSearch.ms, 99), '–'],
        ['another node, same batches', '', '', '', `${same(againSearch.results, singleSearch.results)} of ${queries.length}`],
        [
          '3 nodes, SVC_REPLICAS=2',
          fmt(clusterIngest, 0),
          p(clusterSearch.ms, 50),
          p(clusterSearch.ms, 99),
          `${same(clusterSearch.results, singleSearch.results)} of ${queries.length}`,
        ],
      ],
    ),
  );

  differences('the cluster', clusterSearch.results, singleSearch.results);
  // through a node holding the store, and through the one that forwards every search to a holder
  const holding = placeReplicas(
    'default.wiki',
    nodes.map((n) => n.name),
    2,
  );
  const local = await searchAll([nodes.find((n) => holding.includes(n.name))!.base], 'wiki');
  const forwarded = await searchAll([nodes.find((n) => !holding.includes(n.name))!.base], 'wiki');
  console.log(
    table(
      ['searches through', 'p50 ms', 'p99 ms'],
      [
        ['a node holding the store', p(local.ms, 50), p(local.ms, 99)],
        ['the node without it (forwarded over NATS)', p(forwarded.ms, 50), p(forwarded.ms, 99)],
      ],
    ),
  );

  // 2. kill -9 during concurrent ingest into a second store
  await call(bases[0], 'POST', '/stores', { name: 'kill' });
  const killDocs = corpus.slice(0, KILL_DOCS).map((d) => ({ ...d, id: `k-${d.id}` }));
  const holders = (await Promise.all(nodes.map(async (n) => ({ n, s: await call(n.base, 'GET', '/stores') })))).filter(({ s }) =>
    s.body.stores.some((x: { name: string }) => x.name === 'kill'),
  );
  const victim = holders[0]?.n ?? nodes[1];
  const survivors = nodes.filter((n) => n !== victim);
  const acked = new Set<string>();
  let failedWrites = 0;
  let searches = 0;
  let failedSearches = 0;
  let writing = true;
  const searcher = (async () => {
    for (let i = 0; writing; i++) {
      const r = await call(survivors[i % 2].base, 'POST', '/stores/wiki/search', { query: queries[i % queries.length].query }).catch(
        () => ({ status: 0 }),
      );
      searches++;
      if (r.status !== 200) failedSearches++;
    }
  })();
  const writers = Array.from({ length: 3 }, async (_, w) => {
    for (let i = w * 100; i < killDocs.length; i += 300) {
      const batch = killDocs.slice(i, i + 100);
      for (let attempt = 0; ; attempt++) {
        const target = nodes[(i / 100 + attempt) % 3];
        const r = await call(target.base, 'POST', '/stores/kill/documents', { documents: batch }).catch(() => ({ status: 0 }));
        if (r.status === 200) {
          for (const d of batch) acked.add(d.id);
          break;
        }
        failedWrites++;
      }
    }
  });
  await new Promise((r) => setTimeout(r, 1500));
  await stopNode(victim, 'SIGKILL');
  const killedAt = performance.now();
  await Promise.all(writers);
  writing = false;
  await searcher;
  const exported = new Set(
    String((await call(survivors[0].base, 'GET', '/stores/kill/export')).body)
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: string }).id),
  );
  const lost = [...acked].filter((id) => !exported.has(id)).length;
  const restartAt = performance.now();
  const back = await start(victim.name, victim.env, victim.port);
  nodes[nodes.indexOf(victim)] = back;
  const restartS = (performance.now() - restartAt) / 1000;
  const afterRestart = await searchAll([back.base], 'wiki');
  console.log(
    table(
      ['killed', 'acknowledged docs', 'lost', 'writes retried', 'searches during', 'failed', 'restart to healthy s', 'same passages after'],
      [
        [
          victim.name,
          String(acked.size),
          String(lost),
          String(failedWrites),
          String(searches),
          String(failedSearches),
          fmt(restartS, 1),
          `${same(afterRestart.results, clusterSearch.results)} of ${queries.length}`,
        ],
      ],
    ),
  );
  console.log(`(ingest went on ${((restartAt - killedAt) / 1000).toFixed(1)} s after the kill)`);

  // 3. catch-up of the whole wiki-pool store from the log, on an empty data dir
  const wikiHolder = (await Promise.all(nodes.map(async (n) => ({ n, s: await call(n.base, 'GET', '/stores') })))).find(({ s }) =>
    s.body.stores.some((x: { name: string; n_docs: number }) => x.name === 'wiki' && x.n_docs === corpus.length),
  )!.n;
  await stopNode(wikiHolder);
  fs.rmSync(wikiHolder.dataDir, { recursive: true, force: true });
  const catchStart = performance.now();
  const fresh = await start(wikiHolder.name, wikiHolder.env, wikiHolder.port);
  const catchS = (performance.now() - catchStart) / 1000;
  nodes[nodes.indexOf(wikiHolder)] = fresh;
  const afterCatch = await searchAll([fresh.base], 'wiki');
  const docs = (await call(fresh.base, 'GET', '/stores/wiki')).body.n_docs;
  differences('the caught-up node', afterCatch.results, clusterSearch.results);
  console.log(
    table(
      ['node', 'documents caught up', 'empty data dir to healthy s', 'documents/s', 'same passages'],
      [
        [
          fresh.name,
          String(docs),
          fmt(catchS, 1),
          fmt(docs / catchS, 0),
          `${same(afterCatch.results, clusterSearch.results)} of ${queries.length}`,
        ],
      ],
    ),
  );
  for (const n of nodes) await stopNode(n);
} finally {
  await nats.close();
  fs.rmSync(work, { recursive: true, force: true });
}
