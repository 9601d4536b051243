// `npm run bench -- model-upgrade --from MODEL_DIR [--to MODEL_DIR] [--baseline DIR]`: what moving a
// server to another model version costs at its first start. For this build (and, with --baseline,
// another checkout's build, run the same way beside it): a server on model `--from` is given the
// wiki-pool and stopped, then started on `--to` (default: the shipped model): ms from spawn to a
// ready /v1/health, whether it re-encoded the store (its live encodings database switched), and how
// many of hotpotqa-dev's answers (ids, scores, starts, confidence, hops) differ from those of a
// store ingested under `--to` directly. An earlier model folder comes from git, for example
// `git archive 2e6477e models/svc-mh-1.18.0 | tar -x -C /tmp/m`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StoreDb } from '../src/store/index.js';
import { machineLine, REPO_DIR, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { call, comparedBuilds, serve, stop } from './child-server.js';

const { values: args } = parseArgs({
  options: {
    from: { type: 'string' },
    to: {
      type: 'string',
      default: path.join(REPO_DIR, 'models', fs.readFileSync(path.join(REPO_DIR, 'models', 'DEFAULT'), 'utf8').trim()),
    },
    baseline: { type: 'string' },
  },
});
if (!args.from) {
  process.stderr.write('usage: npm run bench -- model-upgrade --from MODEL_DIR [--to MODEL_DIR] [--baseline DIR]\n');
  process.exit(2);
}
const from = path.resolve(args.from);
const to = path.resolve(args.to);
const corpus = suiteCorpus('hotpotqa-dev');
const questions = suiteQueries('hotpotqa-dev');

/** The wiki-pool ingested into store `pool` by `build`'s server on `model`; seconds it took. */
async function ingest(build: string, dataDir: string, model: string): Promise<number> {
  const r = await serve(build, dataDir, { SVC_MODEL_URI: model });
  const t0 = performance.now();
  try {
    await call(r.base, 'POST', '/stores', { name: 'pool' });
    for (let i = 0; i < corpus.length; i += 1000)
      await call(r.base, 'POST', '/stores/pool/documents', {
        documents: corpus.slice(i, i + 1000).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })),
      });
    return (performance.now() - t0) / 1000;
  } finally {
    await stop(r);
  }
}

/** `build`'s server on `model` over `dataDir`: its readiness, and every question's answer as one line. */
async function answers(build: string, dataDir: string, model: string): Promise<{ readyMs: number; lines: string[] }> {
  const r = await serve(build, dataDir, { SVC_MODEL_URI: model });
  try {
    const lines: string[] = [];
    for (const q of questions) {
      const got = (await call(r.base, 'POST', '/stores/pool/search', { query: q.query })) as {
        passages: Array<{ doc_id: string; score: number; start: number }>;
        confidence: number;
        hops_used: number;
      };
      lines.push(JSON.stringify([got.passages.map((p) => [p.doc_id, p.score, p.start]), got.confidence, got.hops_used]));
    }
    return { readyMs: r.readyMs, lines };
  } finally {
    await stop(r);
  }
}

/** Whether the store of `dataDir` was re-encoded: its live encodings are in the second database. */
async function reencoded(dataDir: string): Promise<boolean> {
  const project = path.join(dataDir, 'default');
  const [dir] = fs.readdirSync(project).map((d) => path.join(project, d));
  const db = StoreDb.open(dir);
  try {
    return (db.meta.encodings ?? 'enc') !== 'enc';
  } finally {
    await db.close();
  }
}

async function measure(label: string, build: string): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-upgrade-'));
  try {
    const upgraded = path.join(root, 'upgraded');
    const ingestS = await ingest(build, upgraded, from);
    const after = await answers(build, upgraded, to);
    const fresh = path.join(root, 'fresh');
    await ingest(build, fresh, to);
    const direct = await answers(build, fresh, to);
    const differ = after.lines.filter((l, i) => l !== direct.lines[i]).length;
    process.stderr.write(`${label}: ready in ${after.readyMs.toFixed(0)} ms after the restart on ${path.basename(to)}\n`);
    return [
      label,
      ingestS.toFixed(1),
      after.readyMs.toFixed(0),
      (await reencoded(upgraded)) ? 'yes' : 'no',
      `${differ} of ${questions.length}`,
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const [label, build] of comparedBuilds(args.baseline)) rows.push(await measure(label, build));
console.log(`\n${machineLine()}\n${path.basename(from)} -> ${path.basename(to)}, the wiki-pool (${corpus.length} documents)\n`);
console.log(
  table(
    [
      'build',
      `ingest on ${path.basename(from)}, s`,
      `restart on ${path.basename(to)}: ready ms`,
      're-encoded',
      "hotpotqa-dev answers unlike a fresh store's on the new model",
    ],
    rows,
  ),
);
