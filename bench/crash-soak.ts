// The long form of the crash-safety test: N kill -9 / restart cycles of a real server under
// concurrent ingest, upsert, delete, search and compaction (test/helpers/crash-harness.ts), then a
// JSON report of what was acknowledged and what was found.
// Usage: npx tsx bench/crash-soak.ts [cycles=60] [seed]
// Needs a built dist/ (npm run build). Exit status 1 when any problem was found.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCrashCycles } from '../test/helpers/crash-harness.js';

const cycles = Number(process.argv[2] ?? 60);
const seed = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-soak-'));
const started = Date.now();
try {
  const report = await runCrashCycles({ dataDir, cycles, seed, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify({ ...report, minutes: Math.round((Date.now() - started) / 600) / 100 }, null, 2)}\n`);
  process.exitCode = report.problems.length ? 1 : 0;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
