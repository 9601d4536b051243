// `npm run bench -- peers [--quick] [--systems svc,svc1,orama,minisearch,fts5] [--no-ann] [--json FILE]`
// svc (default max_hops, and svc1: max_hops 1) against the tools users would pick instead, in one run: each (system, corpus) in its own child
// process (peer-child.ts) after a child that only loads the same data (the memory baseline); then
// an in-process profile of svc's search on the wiki-pool (where the time and bytes go, for the
// floor), and the exact int8 scan against usearch HNSW at the wiki-pool's size (ann-child.ts).
// Prints markdown: the machine, the command, the tables. --quick: 100 questions per multi-hop
// suite and 2,000 SQuAD questions. Invariants: children run one at a time (no two systems share
// the CPU); every ratio is within this run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { measureBandwidth } from './bandwidth.js';
import { type ChildReport, log, machineLine, REPO_DIR, runChild } from './bench-util.js';
import { ensureSqlite3 } from './peer-fts5.js';
import { annTable, floorLines, longDocTable, multiHopTable, type SystemRun } from './peer-report.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'peers'),
  options: {
    quick: { type: 'boolean', default: false },
    systems: { type: 'string', default: 'svc,svc1,orama,minisearch,fts5' },
    'no-ann': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const limits = opt.quick ? { multiHop: 100, squad: 2000 } : {};
const systems = opt.systems!.split(',');
if (systems.includes('fts5')) ensureSqlite3();

const started = new Date();
const load0 = machineLine();
const bw0 = measureBandwidth();
log(`bandwidth ${bw0.bestGBs.toFixed(1)} GB/s`);

const runs: SystemRun[] = [];
const raw: Record<string, unknown> = {};
for (const corpus of ['wiki', 'squad-whole', 'squad-split'] as const) {
  const base = await runChild('peer-child.ts', { system: 'none', corpus, ...limits });
  raw[`none/${corpus}`] = base.report;
  for (const system of systems) {
    if (system.startsWith('svc') && corpus === 'squad-split') continue; // svc is given documents whole
    log(`${system} on ${corpus}`);
    const r: ChildReport = await runChild('peer-child.ts', { system, corpus, ...limits });
    raw[`${system}/${corpus}`] = r.report;
    const helper = Number(r.report.helperMaxRssBytes ?? 0);
    runs.push({ system, corpus, report: r.report, memBytes: Math.max(0, r.maxRssBytes - base.maxRssBytes) + helper });
  }
}

let profile: Record<string, any> | undefined;
const svcWiki = runs.find((r) => r.system === 'svc' && r.corpus === 'wiki');
if (svcWiki) {
  log('profiling svc search in-process on the wiki-pool');
  profile = (await runChild('scale-child.ts', { mode: 'engine', size: svcWiki.report.docs, queries: opt.quick ? 30 : 100 })).report;
  raw.profile = profile;
}

const ann: Array<Record<string, any>> = [];
if (!opt['no-ann']) {
  const n = Number(svcWiki?.report.passages ?? 42708);
  for (const kind of ['text', 'lowrank', 'random']) {
    log(`exact scan vs usearch HNSW, ${kind} vectors, n = ${n}`);
    ann.push((await runChild('ann-child.ts', { n, kind, queries: opt.quick ? 100 : 200 })).report);
  }
  raw.ann = ann;
}
const bw1 = measureBandwidth();
const gbs = Math.max(bw0.bestGBs, bw1.bestGBs);

let commit = '';
try {
  commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: REPO_DIR }).toString().trim();
} catch {
  commit = 'unknown';
}
const minutes = (Date.now() - started.getTime()) / 60000;
const out: string[] = [
  `Command: \`npm run bench -- peers${opt.quick ? ' --quick' : ''}\` at ${started.toISOString()} (git ${commit}), ${minutes.toFixed(0)} minutes.`,
  `Machine at start: ${load0}`,
  `Machine at end: ${machineLine()}`,
  '',
  `### Multi-hop suites on the wiki-pool (${svcWiki?.report.docs ?? 42708} paragraphs; ${limits.multiHop ? `first ${limits.multiHop}` : 'all'} questions per suite; k = 10)`,
  '',
  multiHopTable(runs.filter((r) => r.corpus === 'wiki')),
  '',
  `### Long documents: squad-articles-dev (${limits.squad ? `first ${limits.squad}` : 'all'} questions)`,
  '',
  longDocTable(runs.filter((r) => r.corpus !== 'wiki')),
  '',
  '### Physical floor of one exhaustive hop',
  '',
  ...floorLines({ gbs, svc: svcWiki, profile }).map((l) => `- ${l}`),
];
if (ann.length) {
  out.push(
    '',
    `### Exact int8 scan (svc's kernel, one core) vs usearch HNSW at equal recall@10 (n = ${ann[0].n}, 256 dims)`,
    '',
    annTable(ann),
  );
}
process.stdout.write(`${out.join('\n')}\n`);
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ started, gbs, runs, raw }, null, 1));
