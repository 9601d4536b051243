// `npm run bench -- conf-probe [--model DIR] [--data DIR]`: a five-minute filter for sufficiency
// features before a 30-minute training. With a model folder's own chain scorers and term weights
// (default the shipped model), every training question is searched as asked and with its
// documents hidden, by the training's own sufficiency code (fit-confidence.ts: its stages, ks,
// labels and row weights); then per stage a logistic model of the shipped features alone, and of
// the shipped features plus each candidate group of conf-candidates.ts, is fitted out of fold
// (5 folds by question, and leave-one-suite-out) and scored by the AUROC of found against hidden
// runs and of found against missed runs, per suite at k = 10. It prints one markdown table.
// Invariants: the chains are the model's (fitted on every question, so the folds refit only the
// sufficiency model); rows of a question never cross folds; deterministic for a model and data.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultModelUri } from '../src/config.js';
import { dotw, sufficiencyFeatures } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { DataFolder } from '../src/train/data.js';
import type { Item } from '../src/train/fit-chains.js';
import { CONF_KS, confidenceStages, confidenceWeight } from '../src/train/fit-confidence.js';
import { HYPER } from '../src/train/hyper.js';
import { auroc, fitLogistic, stratifiedFolds } from '../src/train/learners.js';
import { openSets } from '../src/train/steps.js';
import { evidenceRows, sufficient } from '../src/train/train-set.js';
import { REPO_DIR } from './bench-util.js';
import { CANDIDATES, setTermVectors, TermVectors } from './conf-candidates.js';

interface Row {
  item: number;
  suite: string;
  stage: number;
  k: number;
  y: number;
  hidden: boolean;
  w: number;
  base: Float64Array;
  extra: number[][];
}

const { values: args } = parseArgs({
  options: { model: { type: 'string' }, data: { type: 'string', default: path.resolve(REPO_DIR, '../shared') } },
});
const folder = readModelFolder(args.model ?? defaultModelUri());
const { manifest } = folder;
const search = manifest.params.search;
if (!search) throw new Error(`${manifest.name}@${manifest.version} has no search parameters`);
const theta = new Map((search.theta?.terms ?? []).map((t, i) => [t, search.theta!.weights[i]]));
if (search && manifest.params.dense)
  setTermVectors(new TermVectors(manifest.params.dense.dim, folder.files.get('dense-vocab.u32')!, folder.files.get('dense-table.i8')!));
const seed = Number(manifest.training?.seed ?? 1);
const model = { name: manifest.name, version: manifest.version, params: manifest.params, files: folder.files as Map<string, Uint8Array> };
const sets = await openSets(new DataFolder(args.data!), { seed, log: (m) => console.error(m) }, model);
const items: Item[] = sets.flatMap((set) => set.queries.map((q) => ({ set, q })));

/** The rows of one question, as asked or hidden. */
function rowsOf(item: Item, at: number, hidden: boolean): Row[] {
  const { set, q } = item;
  const got = confidenceStages(item, search!, HYPER.exp, theta, hidden);
  if (!got) return [];
  const ev = evidenceRows(set, q);
  const w = confidenceWeight(q, hidden);
  return got.stages.flatMap(({ ch, st }, stage) => {
    const top = st.scores.indexOf(Math.max(...st.scores));
    const extra = CANDIDATES.map((f) => f.compute({ c: got.c, q: got.Q, st, ch, top, x: ch.X[top], stage }));
    return CONF_KS.map((k) => ({
      item: at,
      suite: q.suite,
      stage,
      k,
      y: !hidden && sufficient(set, q, st.ret.slice(0, k), ev) ? 1 : 0,
      hidden,
      w,
      base: sufficiencyFeatures(got.c, got.Q, st, k),
      extra,
    }));
  });
}

const started = performance.now();
const rows = items.flatMap((it, i) => [...rowsOf(it, i, false), ...rowsOf(it, i, true)]);
console.error(`${rows.length} rows of ${items.length} questions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
for (const s of sets) await s.store.close();

const suites = [...new Set(items.map((it) => it.q.suite))];
const byQuestion = stratifiedFolds(
  items.map((it) => it.q.suite),
  5,
  seed,
);
const splits: Array<[string, (r: Row) => number]> = [
  ['5-fold', (r) => byQuestion[r.item]],
  ['leave-one-suite-out', (r) => suites.indexOf(r.suite)],
];

/** Out-of-fold logits of a stage's rows with the candidate groups `use` beside the shipped features. */
function outOfFold(rs: Row[], use: number[], foldOf: (r: Row) => number): number[] {
  const x = rs.map((r) => Float64Array.from([...r.base, ...use.flatMap((g) => r.extra[g])]));
  const z = new Array<number>(rs.length).fill(0);
  for (const f of new Set(rs.map(foldOf))) {
    const train = rs.flatMap((r, i) => (foldOf(r) === f ? [] : [i]));
    const w = fitLogistic(
      train.map((i) => x[i]),
      train.map((i) => rs[i].y),
      HYPER.confL2,
      train.map((i) => rs[i].w),
    );
    rs.forEach((r, i) => {
      if (foldOf(r) === f) z[i] = dotw(w, x[i]) + w[w.length - 1];
    });
  }
  return z;
}

/** Per suite at k = 10: AUROC of found against hidden runs, and of found against missed runs. */
function aurocs(rs: Row[], z: number[]): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const s of suites) {
    const at = rs.flatMap((r, i) => (r.suite === s && r.k === 10 ? [i] : []));
    const found = at.filter((i) => rs[i].y === 1).map((i) => z[i]);
    const hidden = at.filter((i) => rs[i].hidden).map((i) => z[i]);
    const missed = at.filter((i) => !rs[i].hidden && rs[i].y === 0).map((i) => z[i]);
    out.set(s, [auroc(found, hidden), auroc(found, missed)]);
  }
  return out;
}

const fmt = (v: number, base: number) =>
  Number.isNaN(v) ? '-' : v === base ? v.toFixed(3) : `${v.toFixed(3)} (${v >= base ? '+' : ''}${(v - base).toFixed(3)})`;
const groups: Array<[string, number[]]> = [['shipped features', []], ...CANDIDATES.map((c, g): [string, number[]] => [`+ ${c.name}`, [g]])];
console.log(`AUROC at k = 10, found vs hidden / found vs missed, out of fold; model ${manifest.name}@${manifest.version}\n`);
console.log(`| stage | split | features | ${suites.join(' | ')} |\n| --- | --- | --- | ${suites.map(() => '---').join(' | ')} |`);
for (const stage of [0, 1, 2]) {
  const rs = rows.filter((r) => r.stage === stage);
  for (const [split, foldOf] of splits) {
    let base: Map<string, [number, number]> | undefined;
    for (const [name, use] of groups) {
      const a = aurocs(rs, outOfFold(rs, use, foldOf));
      base ??= a;
      const cells = suites.map((s) => {
        const [h, m] = a.get(s)!;
        const [bh, bm] = base!.get(s)!;
        return `${fmt(h, bh)} / ${fmt(m, bm)}`;
      });
      console.log(`| ${stage + 1} | ${split} | ${name} | ${cells.join(' | ')} |`);
    }
  }
}
