// Kill/restart harness: clients ingest, upsert, delete and search one store of a real `svc serve`
// process while another compacts it again and again, plus a store created and one deleted each
// cycle; the server is killed with SIGKILL at a random moment (in the middle of a compaction as
// often as not; the first kill, and each after a clean restart, only once some write of its cycle
// was acknowledged), restarted on the same data dir, and checked against what was acknowledged.
// Every other cycle the restarted server is then also stopped cleanly and started again (its stores
// leave their indexes in `index.snap` and the next start reads them back: checked again), so that
// the next kill leaves those snapshots stale;
// a store quiet for a second also writes its snapshot in the background (SVC_SNAPSHOT_QUIET_S), so
// a restart after a kill may read one and apply the documents changed since (counted). The crash
// store first takes `baseDocs` documents no client writes again, so that a cycle's writes stay
// under the share of the store past which an open builds the index rather than bringing its
// snapshot up to date (store-snapshot.ts): a restart after a kill that follows a clean restart
// always replays (counted strictly), one after another kill does when a quiet snapshot came between.
// Invariants checked after every restart: each store passes StoreDb.verify (no record without its
// text, encoding or order entry, nothing orphaned); each document is in the state of its last
// acknowledged write, or of the one write to it still in flight at the kill (a client owns its ids
// and sends one request at a time, so there is at most one); its text is exactly what was sent;
// its current version is found by search, and no deleted or replaced version is; every store whose
// create was acknowledged exists, and none whose delete was.

import fs from 'node:fs';
import path from 'node:path';
import { type ChildServer, startChild } from './child-server.js';
import { rng } from './engine.js';
import { verifyDataDir, walkDocs } from './store-check.js';

export interface CrashOptions {
  dataDir: string;
  cycles: number;
  clients?: number;
  idsPerClient?: number;
  /** documents written once before the cycles and never again (default 200) */
  baseDocs?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface CrashReport {
  cycles: number;
  seed: number;
  ackedWrites: number;
  ackedDeletes: number;
  compactions: number;
  /** compactions under way when the server was killed */
  compactionsCut: number;
  inFlightAtKill: number;
  inFlightApplied: number;
  docsChecked: number;
  staleChecked: number;
  /** clean stops and starts (the stores reopened from the snapshots they left) */
  cleanRestarts: number;
  /** restarts after a kill that opened the crash store from a snapshot and applied the documents changed since it (one or more) */
  snapshotRestarts: number;
  problems: string[];
}

/** Info logs (to see how a store opened); a store quiet for a second writes its index snapshot in the background. */
const SERVER_ENV = { SVC_LOG: 'info', SVC_SNAPSHOT_QUIET_S: '1' };

/** How the server opened the crash store (its `store opened` log line): from its snapshot or its documents, and how many documents it replayed. */
function howOpened(s: ChildServer): { from?: string; replayed?: number } {
  const line = s
    .stdout()
    .split('\n')
    .find((l) => l.includes('"msg":"store opened"') && l.includes('"store":"crash"'));
  return line ? JSON.parse(line) : {};
}

type State = number | null; // acknowledged version, or null: absent
interface DocModel {
  /** one of the documents written before the cycles: checked by a sample each time (`check`) */
  base?: boolean;
  acked: State;
  pending?: State;
  /** Versions replaced or deleted since the last check: search must not find them. */
  old: number[];
  last: number;
}

const token = (id: string, v: number) => `zq${id.replace(/\D+/g, 'x')}v${v}`;
const text = (id: string, v: number) =>
  `Record ${id}, version ${v}. Its marker word is ${token(id, v)}. ${'Rivers, mountains and old films fill this passage. '.repeat(4)}`;

/** One client's writes until the server dies: each id is written by this client only, one request at a time. */
async function client(s: ChildServer, ids: string[], model: Map<string, DocModel>, r: () => number, report: CrashReport): Promise<void> {
  for (;;) {
    const pick = ids.filter(() => r() < 0.2).slice(0, 1 + Math.floor(r() * 12));
    const present = pick.filter((id) => model.get(id)!.acked !== null);
    try {
      if (pick.length && (r() < 0.6 || !present.length)) {
        const docs = pick.map((id) => ({ id, v: model.get(id)!.last + 1 }));
        for (const d of docs) model.get(d.id)!.pending = d.v;
        const res = await s.api.raw('POST', '/stores/crash/documents', {
          documents: docs.map((d) => ({ id: d.id, text: text(d.id, d.v), metadata: { v: d.v } })),
        });
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
        for (const d of docs) settle(model.get(d.id)!, d.v);
        report.ackedWrites += docs.length;
      } else if (present.length) {
        const m = model.get(present[0])!;
        m.pending = null;
        const res = await s.api.raw('DELETE', `/stores/crash/documents/${present[0]}`);
        if (res.status !== 204) throw new Error(`delete answered ${res.status}`);
        settle(m, null);
        report.ackedDeletes++;
      } else {
        const res = await s.api.raw('POST', '/stores/crash/search', { query: `marker word ${token(ids[0], 1)}` });
        if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      }
    } catch (err) {
      if ((err as Error).message.includes('answered')) report.problems.push(`a request answered an error: ${(err as Error).message}`);
      return;
    }
  }
}

/** Resolves once a write past the `before` acknowledged so far is acknowledged (or after 60 s, when the checks will say what went wrong). */
async function firstWrite(report: CrashReport, before: number): Promise<void> {
  const t0 = Date.now();
  while (report.ackedWrites <= before && Date.now() - t0 < 60_000) await new Promise((res) => setTimeout(res, 10));
}

/** Compacts the store again and again, a short random pause apart (writes wait while it runs), until the server dies. */
async function compactor(s: ChildServer, r: () => number, report: CrashReport): Promise<void> {
  for (;;) {
    await new Promise((res) => setTimeout(res, 20 + r() * 200));
    try {
      const res = await s.api.raw('POST', '/stores/crash/compact');
      if (res.status !== 200) throw new Error(`compact answered ${res.status}`);
      report.compactions++;
    } catch (err) {
      if ((err as Error).message.includes('answered')) report.problems.push(`a request answered an error: ${(err as Error).message}`);
      else report.compactionsCut++;
      return;
    }
  }
}

function settle(m: DocModel, state: State): void {
  if (m.acked !== null && m.acked !== state) m.old.push(m.acked);
  if (state !== null) m.last = Math.max(m.last, state);
  m.acked = state;
  m.pending = undefined;
}

/** Checks the restarted server against the model, then resolves in-flight writes to what is there. */
async function check(
  s: ChildServer,
  model: Map<string, DocModel>,
  stores: Map<string, boolean | undefined>,
  report: CrashReport,
  cycle: number,
): Promise<void> {
  const bad = (msg: string) => report.problems.push(`cycle ${cycle}: ${msg}`);
  // every document's presence and version from the listing; the base documents' text and search for ten of them a check
  const sampled = new Set(
    [...model]
      .filter(([, m]) => m.base)
      .map(([id]) => id)
      .filter((_, i, all) => (i + cycle * 10) % all.length < 10),
  );
  const found = new Map((await walkDocs(s.api, 'crash')).map((d) => [d.id, d.metadata.v as number]));
  for (const id of found.keys()) if (!model.has(id)) bad(`unknown document '${id}'`);
  for (const [id, m] of model) {
    const state: State = found.get(id) ?? null;
    if (m.pending !== undefined) report.inFlightAtKill++;
    if (state !== m.acked && (m.pending === undefined || state !== m.pending)) {
      bad(
        `'${id}' is ${state === null ? 'absent' : `v${state}`}, acknowledged ${m.acked === null ? 'absent' : `v${m.acked}`}${m.pending !== undefined ? `, in flight ${m.pending === null ? 'delete' : `v${m.pending}`}` : ''}`,
      );
    }
    if (m.pending !== undefined && state === m.pending && state !== m.acked) report.inFlightApplied++;
    settle(m, state);
    if (state !== null && (!m.base || sampled.has(id))) {
      report.docsChecked++;
      const hits = (await s.api.post('/stores/crash/search', { query: token(id, state), max_hops: 1 })).passages;
      if (hits[0]?.doc_id !== id) bad(`'${id}' v${state} is not found by its marker`);
      const got = await s.api.get(`/stores/crash/documents/${id}?include_text=true`);
      if (got.text !== text(id, state)) bad(`'${id}' has another text than v${state}`);
    }
    for (const v of m.old.splice(0).slice(-1)) {
      report.staleChecked++;
      const hits = (await s.api.post('/stores/crash/search', { query: token(id, v), max_hops: 1 })).passages;
      if (hits.some((p: { doc_id: string }) => p.doc_id === id)) bad(`replaced or deleted '${id}' v${v} is still found`);
    }
  }
  const listed = new Set((await s.api.get('/stores?limit=100')).stores.map((x: { name: string }) => x.name));
  for (const [name, exists] of stores) {
    if (exists === true && !listed.has(name)) bad(`acknowledged store '${name}' is missing`);
    if (exists === false && listed.has(name)) bad(`deleted store '${name}' is back`);
    stores.set(name, listed.has(name));
  }
}

export async function runCrashCycles(opts: CrashOptions): Promise<CrashReport> {
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const r = rng(seed);
  const report: CrashReport = {
    cycles: 0,
    seed,
    ackedWrites: 0,
    ackedDeletes: 0,
    compactions: 0,
    compactionsCut: 0,
    inFlightAtKill: 0,
    inFlightApplied: 0,
    docsChecked: 0,
    staleChecked: 0,
    cleanRestarts: 0,
    snapshotRestarts: 0,
    problems: [],
  };
  const owners = Array.from({ length: opts.clients ?? 4 }, (_, c) =>
    Array.from({ length: opts.idsPerClient ?? 25 }, (_, n) => `c${c}-${n}`),
  );
  const model = new Map(owners.flat().map((id) => [id, { acked: null, old: [], last: 0 } as DocModel]));
  const stores = new Map<string, boolean | undefined>();
  const start = () => startChild(opts.dataDir, { env: SERVER_ENV });
  let s = await start();
  await s.api.post('/stores', { name: 'crash' });
  const base = Array.from({ length: opts.baseDocs ?? 200 }, (_, n) => `base-${n}`);
  if (base.length)
    await s.api.post('/stores/crash/documents', { documents: base.map((id) => ({ id, text: text(id, 1), metadata: { v: 1 } })) });
  for (const id of base) model.set(id, { base: true, acked: 1, old: [], last: 1 });
  for (let cycle = 1; cycle <= opts.cycles; cycle++) {
    const ackedBefore = report.ackedWrites;
    const work = [
      ...owners.map((ids) => client(s, ids, model, rng(Math.floor(r() * 2 ** 31)), report)),
      compactor(s, rng(Math.floor(r() * 2 ** 31)), report),
    ];
    const created = `cyc${cycle}`;
    const gone = [...stores].find(([, e]) => e)?.[0];
    stores.set(created, undefined);
    if (gone) stores.set(gone, undefined);
    const storeOps = [
      s.api.raw('POST', '/stores', { name: created }).then(
        (x) => x.status === 201 && stores.set(created, true),
        () => undefined,
      ),
      gone
        ? s.api.raw('DELETE', `/stores/${gone}`).then(
            (x) => x.status === 204 && stores.set(gone, false),
            () => undefined,
          )
        : undefined,
    ];
    // the first kill waits for a first acknowledged write (a fresh server's first ingest can take
    // longer than a short random delay, and a run with nothing acknowledged checks nothing), and so
    // does each after a clean restart (its restart then has writes since a snapshot to replay); the
    // other kills may come before any write of their cycle is answered
    if (cycle % 2 === 1) await firstWrite(report, ackedBefore);
    await new Promise((res) => setTimeout(res, 100 + r() * 1400));
    await s.kill();
    await Promise.all([...work, ...storeOps]);
    report.problems.push(...(await verifyDataDir(opts.dataDir)).map((p) => `cycle ${cycle}: ${p}`));
    s = await start();
    await check(s, model, stores, report, cycle);
    const opened = howOpened(s);
    if (opened.from === 'snapshot' && (opened.replayed ?? 0) > 0) report.snapshotRestarts++;
    opts.log?.(`cycle ${cycle}: the crash store opened from its ${opened.from}, ${opened.replayed} documents replayed`);
    if (cycle % 2 === 0) {
      await s.stop();
      const project = path.join(opts.dataDir, 'default');
      if (!fs.readdirSync(project).some((d) => fs.existsSync(path.join(project, d, 'index.snap'))))
        report.problems.push(`cycle ${cycle}: a clean stop left no index snapshot`);
      s = await start();
      await check(s, model, stores, report, cycle);
      report.cleanRestarts++;
    }
    report.cycles = cycle;
    opts.log?.(
      `cycle ${cycle}: ${report.ackedWrites} writes, ${report.ackedDeletes} deletes and ${report.compactions} compactions acknowledged so far (${report.compactionsCut} cut by a kill), ${report.inFlightAtKill} in flight at kills, ${report.problems.length} problems`,
    );
  }
  await s.stop();
  return report;
}
