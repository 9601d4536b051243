// Crash safety: a real server process is killed with SIGKILL at random moments while clients
// ingest, upsert, delete and search, the store is compacted over and over, and stores are created
// and deleted; after each restart on the
// same data dir every acknowledged write is present, whole and searchable, every acknowledged
// delete is gone, nothing is half-written and no stale version is found (helpers/crash-harness.ts
// lists the checks). CI runs a few cycles; the long form: SVC_CRASH_CYCLES=60 npx tap
// test/crash-safety.test.ts (or `npx tsx bench/crash-soak.ts 60`). SVC_CRASH_SEED replays a run.
import t from 'tap';
import { runCrashCycles } from './helpers/crash-harness.js';
import { tempDir } from './helpers/server.js';

const cycles = Number(process.env.SVC_CRASH_CYCLES ?? 3);
const seed = process.env.SVC_CRASH_SEED ? Number(process.env.SVC_CRASH_SEED) : undefined;

t.test(`${cycles} kill -9 / restart cycles lose no acknowledged write`, { timeout: Math.max(300_000, cycles * 60_000) }, async (t) => {
  const report = await runCrashCycles({ dataDir: tempDir(t, 'svc-crash-'), cycles, seed, log: (line) => t.comment(line) });
  t.comment(JSON.stringify({ ...report, problems: report.problems.length }));
  t.equal(report.cycles, cycles, 'every cycle ran');
  t.ok(report.ackedWrites > 0, `${report.ackedWrites} document writes acknowledged`);
  t.same(report.problems, [], `no problem found (seed ${report.seed})`);
  t.ok(report.docsChecked > 0, `${report.docsChecked} documents checked for text and search`);
  t.ok(report.compactions > 0, `${report.compactions} compactions acknowledged, kills among them`);
  if (cycles >= 2) t.ok(report.cleanRestarts > 0, `${report.cleanRestarts} clean restarts from the stores' index snapshots`);
  if (cycles >= 3)
    t.ok(report.snapshotRestarts > 0, `${report.snapshotRestarts} restarts after a kill from a snapshot and the writes since`);
});
