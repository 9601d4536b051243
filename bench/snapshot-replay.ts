// `npm run bench -- snapshot-replay [--shares 0.05,0.1,0.25,0.5,0.75,1] [--reps 3]`: what opening a
// store costs after a crash, by the share of its documents written since its index snapshot: the
// snapshot read and those documents applied to it (replay), against the index built from every
// document's encoding (build), which store-snapshot.ts's SNAPSHOT.maxReplayShare chooses between.
// A `svc serve` of this checkout (needs `npm run build`) ingests the wiki-pool into one store and
// stops (its snapshot left); for each share, a copy of that data dir is served again, that share of
// the documents is written again with a changed text (new passages, the old rows replaced), and
// the server is killed with SIGKILL as the last write is acknowledged (no snapshot since). Then, in
// this process with the shipped model's engine, each copy's store is opened both ways, alternated,
// `reps` times; an open is timed until its index answers (merges may still run). Prints a table of
// medians. Invariants: a replay here reads and removes nothing (the share allowed is 1), so every
// rep opens the same files; the documents are the same for every share, the first ones of the pool.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadIndex } from '../src/api/store-snapshot.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { listProjects, projectStoreDirs, StoreDb } from '../src/store/index.js';
import { fmt, log, machineLine, median, REPO_DIR, suiteCorpus, table } from './bench-util.js';
import { call, serve, stop, waitQuiet } from './child-server.js';
import { EngineHarness, settleIndex } from './engine-harness.js';

const { values: opt } = parseArgs({
  options: { shares: { type: 'string', default: '0.05,0.1,0.25,0.5,0.75,1' }, reps: { type: 'string', default: '3' } },
});
const shares = opt.shares.split(',').map(Number);
const reps = Number(opt.reps);
const docs = suiteCorpus('hotpotqa-dev').map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} }));
const BATCH = 1000;

async function write(base: string, batch: typeof docs): Promise<void> {
  for (let i = 0; i < batch.length; i += BATCH) await call(base, 'POST', '/stores/a/documents', { documents: batch.slice(i, i + BATCH) });
}

/** The one store's folder in a data dir. */
function storeDir(dataDir: string): string {
  const [project] = listProjects(dataDir);
  const [dir] = projectStoreDirs(dataDir, project);
  return dir;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-snapshot-replay-'));
try {
  const first = path.join(root, 'base');
  log(`ingesting ${docs.length} documents`);
  let server = await serve(REPO_DIR, first);
  await call(server.base, 'POST', '/stores', { name: 'a' });
  await write(server.base, docs);
  await waitQuiet(server.base);
  await stop(server); // its close leaves the snapshot
  const copies: Array<{ share: number; changed: number; dir: string }> = [];
  for (const share of shares) {
    const dataDir = path.join(root, `share-${share}`);
    execFileSync('cp', ['-a', first, dataDir]);
    const changed = Math.round(share * docs.length);
    server = await serve(REPO_DIR, dataDir);
    await write(
      server.base,
      docs.slice(0, changed).map((d) => ({ ...d, text: `${d.text} Revised.` })),
    );
    await stop(server, 'SIGKILL');
    copies.push({ share, changed, dir: storeDir(dataDir) });
    log(`share ${share}: ${changed} documents written again, then killed`);
  }

  const harness = await EngineHarness.open();
  const { engine } = harness;
  const quiet = () => {};
  const rows: string[][] = [];
  for (const { share, changed, dir } of copies) {
    const ms = { replay: [] as number[], build: [] as number[] };
    for (let rep = 0; rep < reps; rep++) {
      for (const way of ['replay', 'build'] as const) {
        const db = StoreDb.open(dir);
        const t0 = performance.now();
        let index: ReturnType<typeof engine.createIndex>;
        if (way === 'replay') {
          const got = await loadIndex(() => engine.createIndex(), db, quiet, 1);
          if (got.from !== 'snapshot' || got.replayed !== changed)
            throw new Error(`share ${share}: opened from ${got.from}, ${got.replayed} replayed`);
          index = got.index;
        } else {
          index = engine.createIndex();
          await index.load(db.encodedDocs());
        }
        ms[way].push(performance.now() - t0);
        if (index.documentCount !== docs.length) throw new Error(`share ${share}: ${index.documentCount} documents opened`);
        await settleIndex(index as MemoryStoreIndex);
        index.close();
        await db.close();
      }
    }
    const [r, b] = [median(ms.replay), median(ms.build)];
    rows.push([String(share), String(changed), fmt(r, 0), fmt(b, 0), fmt(r / b, 2)]);
    log(
      `share ${share}: replay ${ms.replay.map((x) => x.toFixed(0)).join(', ')} ms; build ${ms.build.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
  }
  await engine.close();
  console.log(`\n${machineLine()}\n`);
  console.log(`A store of ${docs.length} documents opened after a crash, medians of ${reps} (ms):\n`);
  console.log(table(['share written since the snapshot', 'documents', 'replay', 'build', 'replay / build'], rows));
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
