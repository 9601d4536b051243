// One scale point in its own process: a synthetic corpus of `size` documents (synth-corpus.ts; the
// gold documents of the evaluated queries first), either
// - mode 'http': ingested into a real svc server in a child process (`svc serve`) over HTTP (1000
//   per request, as users do) and searched over HTTP after 16 untimed searches (the first one
//   reported alone): ingest time, latency percentiles, all-gold@10, the index's bytes and segments
//   and the engine's memory (from /metrics), data dir, the server's RSS, peak RSS and RSS by kind
//   of mapping, right after the searches and again at rest (once no engine task has run for
//   settleMs); with `reopen`, the server is then stopped and started again on its data dir: time
//   to ready, the first search (which opens the store: stores open lazily), the time until the
//   engine is quiet (the merges after the load), the segments then, RSS, and the queries searched
//   again (latency, all-gold@10); with `crash`, the server is instead killed (SIGKILL) a while
//   after the searches and some writes, as a crash would leave it (the store then reopens from a
//   background snapshot, if any, and the documents changed since); `build` serves another checkout
//   (built) as a baseline; `keep` leaves the data dir, which a later run names as `dataDir` to
//   search it again without the ingest (and, with `delete`, then to delete the store while the
//   server's liveness is asked; with `coldCache`, its files dropped from the page cache first, as
//   after a reboot);
// - mode 'engine': encoded and indexed in-process (no HTTP, no LMDB) and searched through the
//   search op on this thread with profiled kernels: where a search's time and bytes go.
// Prints one JSON report line. Args: { mode, size, queries (count per suite), threads?, settleMs? }.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCAN } from '../src/engine/params.js';
import { type Doc, log, percentile, procMaxRss, REPO_DIR, rssByMapping, selfMaxRss, suiteCorpus, suiteQueries } from './bench-util.js';
import { call, rssMiB, scrape, serve, stop, waitQuiet } from './child-server.js';
import { CpuProfile } from './cpu-profile.js';
import { EngineHarness } from './engine-harness.js';
import { duBytes } from './peer-svc.js';
import { allGold } from './peer-text.js';
import { SynthCorpus } from './synth-corpus.js';

interface Args {
  mode: 'http' | 'engine';
  size: number;
  queries: number;
  threads?: number;
  /** scan budgets to run the approximate scan with (default: the engine's) */
  budgets?: number[];
  /**
   * how long the engine must have run no task before the searches (default 3000 ms); longer lets
   * the engine relocate its memory first (it writes the new memory's pages with no task running)
   */
  settleMs?: number;
  /** mode 'http': restart the server on its data dir after the searches and measure the store's reopening */
  reopen?: boolean;
  /** with reopen: wait waitMs after the searches (the server's SVC_SNAPSHOT_QUIET_S is 5), ingest `writes` new documents, then kill -9 the server */
  crash?: { waitMs: number; writes: number };
  /** the svc build to serve: this repository (default), or another checkout, built, for a baseline */
  build?: string;
  /** mode 'http': leave the data dir in place after the run (its path is reported as `dataDir`) */
  keep?: boolean;
  /**
   * mode 'http': no ingest; serve a data dir an earlier run kept (`keep`) and search it as `reopen`
   * does, so that one large store is built once and searched by several builds or settings
   */
  dataDir?: string;
  /** mode 'http' with dataDir: then delete the store (the data dir's store is gone after the run) */
  delete?: boolean;
  /** extra environment for the server (an engine setting) and options for its node (a profiler's `--cpu-prof`) */
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** report the `slowest` searches (engine ms, hops, the question), a tenth of them */
  slowest?: boolean;
  /** with dataDir: drop its files from the page cache before the server starts (GNU dd's nocache), as a reboot leaves them */
  coldCache?: boolean;
  /** with reopen or dataDir: after the searches, time the first writes to the reopened store (then delete what they wrote) */
  writeAfter?: boolean;
}

const args = JSON.parse(process.argv[2]) as Args;
const WARMUP = 16;
const queries = ['hotpotqa-dev', '2wiki-dev'].flatMap((s) => suiteQueries(s, args.queries));
let synth: SynthCorpus | undefined = args.dataDir
  ? undefined
  : new SynthCorpus(
      suiteCorpus('hotpotqa-dev'),
      queries.flatMap((q) => q.gold_doc_ids),
    );
const report: Record<string, unknown> = { mode: args.mode, size: args.size, queries: queries.length, build: args.build ?? 'this' };
const BUILD = args.build ?? REPO_DIR;
const serverEnv: Record<string, string> = {
  ...(args.threads ? { SVC_THREADS: String(args.threads) } : {}),
  ...(args.crash ? { SVC_SNAPSHOT_QUIET_S: '5' } : {}),
  ...args.env,
};
const STORE = 'bench';
/** The store's labels in /metrics. */
const LABEL = `{project="default",store="${STORE}"}`;

let docsDone = 0;

/** Seconds spent inside `add` (generating the synthetic documents is not counted). */
async function ingest(add: (docs: Doc[]) => Promise<void>): Promise<number> {
  let spent = 0;
  let done = 0;
  let next = 0;
  for (const batch of synth!.batches(args.size)) {
    const t0 = performance.now();
    await add(batch);
    spent += (performance.now() - t0) / 1000;
    done += batch.length;
    docsDone = done;
    if (done >= next) {
      log(`scale ${args.mode} ${args.size}: ${done} documents, ${spent.toFixed(0)} s`);
      next += Math.max(args.size / 10, 1000);
    }
  }
  synth = undefined; // the generator's vocabularies are not part of the system's memory after ingest
  return spent;
}

/** One search over HTTP: its round trip, the engine's latency, and the documents it returned. */
async function searchOnce(base: string, query: string) {
  const t = performance.now();
  const r = (await call(base, 'POST', `/stores/${STORE}/search`, { query, max_results: 10 })) as {
    latency_ms: number;
    confidence: number;
    hops_used: number;
    passages: Array<{ doc_id: string; score: number }>;
  };
  const answer = [r.confidence, ...r.passages.map((p) => [p.doc_id, p.score])];
  const hits = r.passages.map((p) => ({ docId: p.doc_id, text: '' }));
  return { ms: performance.now() - t, engineMs: r.latency_ms, hops: r.hops_used, hits, answer };
}

/**
 * WARMUP untimed searches (the first one's engine latency kept: a fresh server's first searches
 * compile the search code and touch a new million-row scratch), then every query timed.
 */
async function searchAll(base: string) {
  let firstMs = 0;
  for (let i = 0; i < WARMUP; i++) {
    const a = await searchOnce(base, queries[i % queries.length].query);
    if (i === 0) firstMs = a.engineMs;
  }
  const engine: number[] = [];
  const roundTrip: number[] = [];
  const each: Array<{ engineMs: number; hops: number; query: string }> = [];
  let gold10 = 0;
  const digest = crypto.createHash('sha256');
  for (const q of queries) {
    const a = await searchOnce(base, q.query);
    roundTrip.push(a.ms);
    engine.push(a.engineMs);
    each.push({ engineMs: a.engineMs, hops: a.hops, query: q.query });
    gold10 += +allGold(q, a.hits, 10);
    digest.update(JSON.stringify(a.answer));
  }
  const slowest = args.slowest ? { slowest: each.sort((a, b) => b.engineMs - a.engineMs).slice(0, Math.ceil(each.length / 10)) } : {};
  // one digest of every answer (confidence, documents, scores): two builds that answer alike print the same
  return { firstMs, engine, roundTrip, allGold10: gold10 / queries.length, answersDigest: digest.digest('hex').slice(0, 16), ...slowest };
}

/**
 * A server started again on `dataDir`: time to ready, the first search (it opens the store), how
 * long the engine then runs tasks (the load's merges), its segments and memories, RSS, and the queries searched again.
 */
async function reopen(dataDir: string): Promise<Record<string, unknown>> {
  const server = await serve(BUILD, dataDir, serverEnv, args.nodeArgs);
  const pid = server.child.pid!;
  const first = await searchOnce(server.base, queries[0].query);
  const rssOpenedBytes = rssMiB(pid) * 2 ** 20;
  const quietSeconds = await waitQuiet(server.base, args.settleMs);
  const metrics = await scrape(server.base);
  const segments = metrics.get(`svc_store_segments${LABEL}`);
  const regions = metrics.get('svc_engine_memory_regions');
  const { engine, roundTrip, allGold10, answersDigest, slowest } = await searchAll(server.base);
  const out = {
    answersDigest,
    segments,
    regions,
    slowest,
    readyMs: server.readyMs,
    firstSearchMs: first.ms,
    firstSearchEngineMs: first.engineMs,
    rssOpenedBytes,
    quietSeconds,
    engineP50: percentile(engine, 50),
    engineP99: percentile(engine, 99),
    roundTripP50: percentile(roundTrip, 50),
    roundTripP99: percentile(roundTrip, 99),
    allGold10,
    rssBytes: rssMiB(pid) * 2 ** 20,
    maxRssBytes: procMaxRss(pid),
    ...(args.writeAfter ? await firstWrites(server.base) : {}),
    ...(args.delete ? await deleteStore(server.base, pid) : {}),
  };
  await stop(server);
  return out;
}

/** How long `f` took to settle, in ms. */
async function elapsedMs(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/**
 * The first writes to a reopened store, one document each, in ms (the first after a restart is the
 * one that may find the document table without room); then both deleted, leaving the store's
 * documents as they were.
 */
async function firstWrites(base: string): Promise<{ firstWritesMs: number[]; writesDeletedMs: number }> {
  const ids = ['write-after-reopen-1', 'write-after-reopen-2'];
  const firstWritesMs: number[] = [];
  for (const id of ids)
    firstWritesMs.push(
      await elapsedMs(() =>
        call(base, 'POST', `/stores/${STORE}/documents`, {
          documents: [{ id, text: `Probe ${id}\nA document written after the store reopened.` }],
        }),
      ),
    );
  const writesDeletedMs = await elapsedMs(() => call(base, 'POST', `/stores/${STORE}/documents/delete`, { ids }));
  return { firstWritesMs, writesDeletedMs };
}

/**
 * Deletes the store while /v1/livez is asked every 10 ms: how long the DELETE took, the slowest
 * livez answer meanwhile (the event loop held up), and the RSS once the engine is quiet again.
 */
async function deleteStore(base: string, pid: number): Promise<Record<string, number>> {
  let deleting = true;
  let livezWorstMs = 0;
  const pinger = (async () => {
    while (deleting) {
      const t = performance.now();
      await fetch(`${base}/livez`);
      livezWorstMs = Math.max(livezWorstMs, performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const deleteMs = await elapsedMs(() => call(base, 'DELETE', `/stores/${STORE}`));
  await waitQuiet(base, args.settleMs);
  deleting = false;
  await pinger;
  return { deleteMs, livezWorstMs, rssDeletedBytes: rssMiB(pid) * 2 ** 20 };
}

/** Asks the kernel to drop every file under `dir` from its page cache. */
function dropFromCache(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) execFileSync('dd', [`if=${path.join(e.parentPath, e.name)}`, 'iflag=nocache', 'count=0', 'status=none']);
}

if (args.mode === 'http' && args.dataDir) {
  report.dataDir = args.dataDir;
  if (args.coldCache) dropFromCache(args.dataDir);
  report.reopen = await reopen(args.dataDir);
} else if (args.mode === 'http') {
  // The server runs in a process of its own (`svc serve`), so that its RSS and peak are its own, not
  // this process's corpus generator and client.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-scale-'));
  const server = await serve(BUILD, dataDir, serverEnv, args.nodeArgs);
  const pid = server.child.pid!;
  const rss = () => rssMiB(pid) * 2 ** 20;
  const store = `/stores/${STORE}`;
  await call(server.base, 'POST', '/stores', { name: STORE });
  // where the ingest's peak is: the server's RSS by mapping every second, kept at its largest
  // (with the engine's memory written and the main thread's heap, from /metrics)
  let peak = { rssBytes: 0 } as Record<string, unknown> & { rssBytes: number };
  let sampling = false;
  const sampler = setInterval(async () => {
    if (sampling) return;
    sampling = true;
    try {
      const bytes = rss();
      if (bytes <= peak.rssBytes) return;
      const byMapping = rssByMapping(pid);
      const m = await scrape(server.base);
      peak = {
        rssBytes: bytes,
        docs: docsDone,
        rssByMapping: byMapping,
        wasmWrittenBytes: m.get('svc_engine_memory_bytes{kind="written"}'),
        jsHeapBytes: m.get('nodejs_heap_size_total_bytes'),
      };
    } finally {
      sampling = false;
    }
  }, 1000);
  report.ingestSeconds = await ingest(async (docs) => {
    await call(server.base, 'POST', `${store}/documents`, {
      documents: docs.map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })),
    });
  });
  clearInterval(sampler);
  report.ingestPeakSample = peak;
  report.rssAfterIngestBytes = rss();
  // the peak of the ingest itself: the engine's move of its memory (after two idle seconds) comes later
  report.maxRssIngestBytes = procMaxRss(pid);
  report.settleSeconds = await waitQuiet(server.base, args.settleMs);
  report.rssSettledBytes = rss();
  const { firstMs, engine, roundTrip, allGold10, answersDigest } = await searchAll(server.base);
  report.firstSearchMs = firstMs;
  report.answersDigest = answersDigest;
  // what a store's description (its counts) and a metrics scrape cost at this size
  const timed = async (f: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) ms.push(await elapsedMs(f));
    return percentile(ms, 50);
  };
  report.storeGetMs = await timed(() => call(server.base, 'GET', store));
  report.metricsMs = await timed(() => scrape(server.base));
  const m = await scrape(server.base);
  Object.assign(report, {
    allGold10,
    engineP50: percentile(engine, 50),
    engineP99: percentile(engine, 99),
    roundTripP50: percentile(roundTrip, 50),
    roundTripP99: percentile(roundTrip, 99),
    passages: m.get(`svc_store_passages${LABEL}`),
    indexBytes: m.get(`svc_store_index_bytes${LABEL}`),
    segments: m.get(`svc_store_segments${LABEL}`),
    wasmBytes: m.get('svc_engine_memory_bytes{kind="reserved"}'),
    wasmWrittenBytes: m.get('svc_engine_memory_bytes{kind="written"}'),
    wasmUsedBytes: m.get('svc_engine_memory_bytes{kind="allocated"}'),
    relocations: m.get('svc_engine_memory_relocations_total'),
    discardedBytes: m.get('svc_engine_memory_discarded_bytes_total'),
    jsHeapBytes: m.get('nodejs_heap_size_total_bytes'),
    jsHeapUsedBytes: m.get('nodejs_heap_size_used_bytes'),
    dataDirBytes: duBytes(dataDir),
    rssBytes: rss(),
    rssByMapping: rssByMapping(pid),
    maxRssBytes: procMaxRss(pid),
  });
  // the server at rest after the searches: what the engine's idle collections leave resident
  await waitQuiet(server.base, args.settleMs);
  const rested = await scrape(server.base);
  Object.assign(report, {
    rssRestedBytes: rss(),
    rssByMappingRested: rssByMapping(pid),
    jsHeapRestedBytes: rested.get('nodejs_heap_size_total_bytes'),
    heapCompactedBytes: rested.get('svc_engine_heap_compacted_bytes_total'),
  });
  if (args.crash) {
    await new Promise((r) => setTimeout(r, args.crash!.waitMs));
    const writing = performance.now();
    for (let i = 0; i < args.crash.writes; i += 100) {
      const documents = Array.from({ length: Math.min(100, args.crash.writes - i) }, (_, j) => ({
        id: `crash-${i + j}`,
        text: `Crash record ${i + j}\nA document written after the snapshot, about record ${i + j} and its river.`,
      }));
      await call(server.base, 'POST', `${store}/documents`, { documents });
    }
    report.crashWritesMs = performance.now() - writing;
    await stop(server, 'SIGKILL');
  } else {
    // a store left open at shutdown closes then, leaving its index for the next start (store-snapshot.ts)
    report.stopMs = await elapsedMs(() => stop(server));
  }
  const project = path.join(dataDir, 'default');
  report.snapshotBeforeReopen = fs.readdirSync(project).some((d) => fs.existsSync(path.join(project, d, 'index.snap')));
  if (args.reopen) report.reopen = await reopen(dataDir);
  if (args.keep) report.dataDir = dataDir;
  else fs.rmSync(dataDir, { recursive: true, force: true });
} else {
  const h = await EngineHarness.open({ threads: args.threads });
  report.encodeSeconds = await ingest((docs) => h.add(docs));
  await h.settle();
  report.totalRows = h.totalRows;
  Object.assign(report, h.heapStats());
  h.search(queries[0].query); // warm-up (JIT, caches), not counted
  /** Searches every question with one scan setting: each top 10, and the time and quality summary. */
  const runAll = (scan?: 'exact' | 'approximate', budget?: number) => {
    h.profile.reset();
    const ms: number[] = [];
    const tops: string[][] = [];
    let gold10 = 0;
    for (const q of queries) {
      const r = h.search(q.query, 10, 4, scan, budget);
      ms.push(r.ms);
      tops.push(r.docIds);
      gold10 += +allGold(
        q,
        r.docIds.map((docId) => ({ docId, text: '' })),
        10,
      );
    }
    const totals = h.profile.totals();
    return {
      tops,
      summary: {
        allGold10: gold10 / queries.length,
        searchP50: percentile(ms, 50),
        searchMean: ms.reduce((a, b) => a + b, 0) / ms.length,
        kernelMsPerSearch: totals.ms / ms.length,
        kernelBytesPerSearch: totals.bytes / ms.length,
        kernels: h.profile.perSearch(ms.length).slice(0, 12),
      },
    };
  };
  // Both scans over the same store: the exact one, and the approximate one (common terms pruned past
  // a budget of postings, scan-budget.ts) at several budgets, each with how much of the exact top 10
  // it keeps.
  const exact = runAll('exact');
  report.exact = exact.summary;
  for (const budget of args.budgets ?? [SCAN.budget]) {
    const a = runAll('approximate', budget);
    const kept = a.tops.reduce(
      (n, top, i) => n + top.filter((d) => exact.tops[i].includes(d)).length / Math.max(exact.tops[i].length, 1),
      0,
    );
    report[`approximate/${budget}`] = { budget, ...a.summary, top10OverlapWithExact: kept / queries.length };
  }
  // the default scan (what a server would run at this size), profiled
  Object.assign(report, runAll().summary);
  const cpu = new CpuProfile();
  await cpu.start();
  for (const q of queries.slice(0, 40)) h.search(q.query);
  const selfTimes = await cpu.stop();
  report.selfTimes = selfTimes.map((t) => ({ ...t, ms: t.ms / Math.min(queries.length, 40) }));
  await h.close();
}
if (args.mode === 'engine') report.maxRssBytes = selfMaxRss();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
