// `npm run bench [-- peers | scale | filter | mcp | large-doc | book | large-ingest | memory | alloc | stores | cluster | conf-probe | deleted-store | row-order | model-upgrade | snapshot-replay | <nothing>] [options]`: the bench
// entry point. With no argument it runs the engine benches that need no peers: the raw dense scan (scan.ts, 1M x 256 int8) and
// the suite runner (eval.ts) on hotpotqa-dev and squad-articles-dev (first 200 questions each).
// `peers` (peers.ts) compares svc with Orama, MiniSearch, SQLite FTS5 and usearch; `scale`
// (scale.ts) grows a synthetic corpus to 1M passages; `filter` (filter.ts) measures what a metadata
// filter costs a search on one such corpus; `mcp` (mcp.ts) a search through /v1/mcp against REST;
// `large-doc` (large-doc.ts) one 10 MB document against the same text as separate documents;
// `book` (book.ts) the multi-hop suites' recall and confidence over the wiki-pool joined into one document;
// `large-ingest` (large-ingest.ts) a 30 MB document ingested while another store is searched;
// `memory` (memory.ts) where a server's memory goes with the wiki-pool loaded; `alloc` (alloc.ts) what a
// search allocates on the JavaScript heap; `stores` (stores.ts)
// a thousand small stores, and a store opened again after it closed when idle; `cluster` (cluster.ts) three
// svc nodes on three NATS servers against one node (throughput, kill -9, catch-up); `conf-probe` (conf-probe.ts)
// candidate sufficiency features against the shipped ones, out of fold, in minutes; `deleted-store`
// (deleted-store.ts) whether a deleted store's memory goes back; `row-order` (row-order.ts) whether
// a search's results depend on the order the store's documents were indexed in; `model-upgrade`
// (model-upgrade.ts) what a server's first start on another model version costs its stores;
// `snapshot-replay` (snapshot-replay.ts) a store's open after a crash, its snapshot brought up to date
// against its index built, by the share of its documents written since the snapshot.
// Nothing here is part of `npm test`, and no bench asserts on time: they print tables. Each bench
// runs in a child process of its own.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR, REPO_DIR } from './bench-util.js';

const [what, ...rest] = process.argv.slice(2);

function tsx(script: string, args: string[]): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, script), ...args], { cwd: REPO_DIR, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The named benches: `npm run bench -- <name>` runs bench/<name>.ts with the remaining arguments. */
const NAMED = [
  'peers',
  'scale',
  'filter',
  'mcp',
  'large-doc',
  'book',
  'large-ingest',
  'memory',
  'alloc',
  'stores',
  'cluster',
  'conf-probe',
  'deleted-store',
  'row-order',
  'model-upgrade',
  'snapshot-replay',
];

if (what === undefined) {
  tsx('scan.ts', []);
  tsx('eval.ts', ['--suite', '../shared/bench/hotpotqa-dev', '--limit', '200']);
  tsx('eval.ts', ['--suite', '../shared/bench/squad-articles-dev', '--limit', '200']);
} else if (NAMED.includes(what)) {
  tsx(`${what}.ts`, rest);
} else {
  process.stderr.write(`unknown bench '${what}': use npm run bench [-- ${NAMED.join(' | ')}] (see bench/RESULTS.md)\n`);
  process.exit(2);
}
