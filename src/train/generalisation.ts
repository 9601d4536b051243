// The generalisation evaluation (`npm run eval -- --generalisation`): how the model holds on
// questions of a kind it was never fitted on. Leave-one-suite-out: for each suite (hotpotqa-dev,
// 2wiki-dev, musique-dev, and squad-articles-dev whose training counterpart is SQuAD-train), every
// learned part is fitted without that suite's questions (for the SQuAD fold also the dense encoder,
// without SQuAD pairs, and the question-term weights and the reader, which come from SQuAD), the
// returned confidence calibrated as `svc train` calibrates it, and the model is then
// asked the held-out suite's questions, searched as the server searches (max_results 10, the
// reader's re-ordering of a one-hop head): over the store as it is, over the same store with every
// document's title removed (first line and metadata.title; multi-hop suites), with the question's
// own documents hidden, with the passages of its own paragraph hidden (squad-articles-dev: the
// article is there and does not say it), and over a store on other subjects. Deterministic for a
// given seed.
import { NativeReader, rerankLead } from '../answer/index.js';
import { InProcessStore, type LoopParams, type RerankParams } from '../engine/index.js';
import { AnswerText } from './answer-presence.js';
import { type CorpusDoc, DataFolder, MULTIHOP_SUITES, paragraphRange, type TrainQuery } from './data.js';
import type { Item } from './fit-chains.js';
import { fitRerank } from './fit-rerank.js';
import { HYPER, STOP_WORDS } from './hyper.js';
import { auroc, ece, eceFloor, stratifiedFolds } from './learners.js';
import {
  deciding,
  fitLoop,
  heldOutSquad,
  keywordItems,
  learnTermWeights,
  type Model,
  openSets,
  type StepOptions,
  sampleData,
  type Theta,
  trainEncoder,
  trainReader,
} from './steps.js';
import { evidenceRows, sufficient, type TrainSet } from './train-set.js';
import { untitledSet } from './untitled.js';

export interface GeneralisationOptions extends StepOptions {
  dataDir: string;
  /** answerable squad-articles-dev questions asked (default 3000, the first ones) */
  squadQueries?: number;
  /** the suites to hold out, each in turn (default: the three multi-hop suites and squad-articles-dev) */
  heldOut?: string[];
}

/** Every suite the evaluation can hold out. */
const HELD_OUT_SUITES = [...MULTIHOP_SUITES, 'squad-articles-dev'];

/** How one held-out suite fared under one condition (k = 10, as the server searches). */
export interface ConditionFigures {
  queries: number;
  /** all-gold@k (multi-hop) or answer-passage hit@k (squad) */
  found: Record<string, number>;
  ece10: number;
  /** the 90th percentile of a perfectly calibrated confidence's ECE on these confidences */
  eceFloor90: number;
  confFound: number;
  confMissed: number;
  meanHops: number;
}

export interface NoAnswerFigures {
  /** the question asked of its store with its own documents hidden: mean confidence, and the AUROC of found runs against these */
  hiddenMean: number;
  hiddenAuroc: number;
  /** the same over the questions whose answer is then written nowhere in the store (answer-presence.ts; NaN when there are none) */
  absentQuestions: number;
  absentMean: number;
  absentAuroc: number;
  /** the question asked of a store on other subjects */
  otherStore: string;
  otherMean: number;
  otherAuroc: number;
  /** a long-document question asked of its store with the passages of its own paragraph hidden: mean confidence and AUROC (squad-articles-dev) */
  paragraphMean?: number;
  paragraphAuroc?: number;
}

/** One held-out question's searches, for analysis (`--runs FILE`). */
export interface QuestionRuns {
  id: string;
  question: string;
  found: boolean;
  conf: number;
  hops: number;
  hiddenConf: number;
  /** no document but the question's own holds its answer */
  answerAbsent: boolean;
  otherConf: number;
  paragraphConf?: number;
  untitledFound?: boolean;
  untitledConf?: number;
}

export interface SuiteGeneralisation {
  suite: string;
  judge: 'all-gold-docs' | 'answer-passage';
  loso: ConditionFigures;
  untitled?: ConditionFigures;
  noAnswer: NoAnswerFigures;
  questions: QuestionRuns[];
}

/** The cross-validation folds `svc train` fits the returned calibration on (its --folds default). */
const CV_FOLDS = 5;
const KS = [1, 2, 5, 10];
const K = 10;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** A question's search under one condition: found@k for each k of KS, its confidence and hops. */
type Run = { found: boolean[]; conf: number; hops: number };

/** A learned model as it would ship: the loop's parameters and, with a reader, its re-ordering of a one-hop head. */
interface Fitted {
  search: LoopParams;
  rerank?: { reader: NativeReader; params: RerankParams };
}

/** One search as the server runs it: max_results 10, the head of a one-hop result re-ordered by the reader. */
function ask(
  set: TrainSet,
  q: TrainQuery,
  m: Fitted,
  hidden: string[] = [],
  hiddenRows: number[] = [],
): { rows: number[]; conf: number; hops: number } {
  const out = set.store.search(q.text, m.search, { maxResults: K, hidden, hiddenRows });
  let rows = out.hits.map((h) => h.row);
  if (m.rerank && out.stage === 1) {
    const passages = out.hits.map((h) => ({ row: h.row, score: h.score, text: set.store.passageText(h.row) }));
    rows = rerankLead(m.rerank.reader, m.rerank.params, q.text, passages).map((p) => p.row);
  }
  return { rows, conf: out.confidence, hops: out.hopsUsed };
}

function figures(runs: Run[]): ConditionFigures {
  const conf = runs.map((r) => r.conf);
  const ys = runs.map((r) => (r.found[KS.indexOf(K)] ? 1 : 0));
  return {
    queries: runs.length,
    found: Object.fromEntries(KS.map((k, i) => [`@${k}`, mean(runs.map((r) => (r.found[i] ? 1 : 0)))])),
    ece10: ece(conf, ys),
    eceFloor90: eceFloor(conf).p90,
    confFound: mean(conf.filter((_, i) => ys[i] === 1)),
    confMissed: mean(conf.filter((_, i) => ys[i] === 0)),
    meanHops: mean(runs.map((r) => r.hops)),
  };
}

/** The suite's questions asked of `set` (found@k of its evidence), with their confidences. */
function askAll(set: TrainSet, queries: TrainQuery[], m: Fitted): Run[] {
  return queries.map((q) => {
    const r = ask(set, q, m);
    const ev = evidenceRows(set, q);
    return { found: KS.map((k) => sufficient(set, q, r.rows.slice(0, k), ev)), conf: r.conf, hops: r.hops };
  });
}

/** The learned loop fitted on `train` as `svc train` fits it (steps.ts fitLoop, 5 folds by question), and the reader's re-ordering when there is a reader. */
function fitHeldOut(train: Item[], theta: Theta, reader: NativeReader | undefined, o: StepOptions): Fitted {
  const folds = stratifiedFolds(
    train.map((it) => it.q.suite),
    CV_FOLDS,
    o.seed,
  );
  const { search } = fitLoop(train, keywordItems(train), folds, theta, { ...o, log: () => {} });
  return { search, rerank: reader ? { reader, params: fitRerank(deciding(train), search, reader, HYPER.rerank).params } : undefined };
}

/** The parts trained before the loop: with SQuAD (as shipped), or without (the SQuAD fold). */
async function base(data: DataFolder, o: StepOptions, squad: boolean): Promise<{ model: Model; theta: Theta; reader?: NativeReader }> {
  const encoder = await trainEncoder(data, o, { squad });
  const model: Model = {
    name: 'svc-generalisation',
    version: squad ? 'all' : 'no-squad',
    params: { stop: STOP_WORDS, lexical: HYPER.lexical, dense: encoder.params },
    files: encoder.files,
  };
  if (!squad) return { model, theta: { terms: [], weights: [] } };
  const reader = NativeReader.parse(trainReader(data, o).file);
  return { model, theta: await learnTermWeights(data, o, model), reader };
}

function questionRuns(
  queries: TrainQuery[],
  runs: Run[],
  hidden: number[],
  absent: boolean[],
  other: number[],
  untitled?: Run[],
  paragraph?: number[],
): QuestionRuns[] {
  const at = KS.indexOf(K);
  return queries.map((q, i) => ({
    id: q.id,
    question: q.text,
    found: runs[i].found[at],
    conf: runs[i].conf,
    hops: runs[i].hops,
    hiddenConf: hidden[i],
    answerAbsent: absent[i],
    otherConf: other[i],
    ...(paragraph ? { paragraphConf: paragraph[i] } : {}),
    ...(untitled ? { untitledFound: untitled[i].found[at], untitledConf: untitled[i].conf } : {}),
  }));
}

function noAnswer(foundConf: number[], hidden: number[], absent: boolean[], otherStore: string, other: number[]): NoAnswerFigures {
  const absentConf = hidden.filter((_, i) => absent[i]);
  return {
    hiddenMean: mean(hidden),
    hiddenAuroc: auroc(foundConf, hidden),
    absentQuestions: absentConf.length,
    absentMean: absentConf.length ? mean(absentConf) : Number.NaN,
    absentAuroc: auroc(foundConf, absentConf),
    otherStore,
    otherMean: mean(other),
    otherAuroc: auroc(foundConf, other),
  };
}

/** What both kinds of fold share: the options, the data, the wiki-pool (sampled as the training sets sample it), the SQuAD-dev articles, and the clock. */
interface Evaluation {
  o: GeneralisationOptions;
  data: DataFolder;
  corpus: CorpusDoc[];
  queries: TrainQuery[];
  squadDev: ReturnType<DataFolder['squadDev']>;
  elapsed: () => string;
}

/** A sample's SQuAD-dev articles: those its questions ask about, and as many others (the first ones) as distractors. */
function sampleSquad({ docs, queries }: ReturnType<DataFolder['squadDev']>): ReturnType<DataFolder['squadDev']> {
  const asked = new Set(queries.flatMap((q) => q.gold));
  const others = docs.filter((d) => !asked.has(d.id)).slice(0, asked.size);
  return { docs: docs.filter((d) => asked.has(d.id) || others.includes(d)), queries };
}

export async function generalisation(o: GeneralisationOptions): Promise<SuiteGeneralisation[]> {
  const started = performance.now();
  const heldOut = o.heldOut ?? HELD_OUT_SUITES;
  const unknown = heldOut.filter((s) => !HELD_OUT_SUITES.includes(s));
  if (unknown.length) throw new Error(`cannot hold out ${unknown.join(', ')}: the suites are ${HELD_OUT_SUITES.join(', ')}`);
  const data = new DataFolder(o.dataDir);
  const { corpus, queries } = o.sample
    ? sampleData(data.corpus(), data.multihopQueries(), o.sample, o.seed)
    : { corpus: data.corpus(), queries: data.multihopQueries() };
  const run: Evaluation = {
    o,
    data,
    corpus,
    queries,
    squadDev: o.sample ? sampleSquad(data.squadDev(Math.min(o.sample, o.squadQueries ?? 3000))) : data.squadDev(o.squadQueries ?? 3000),
    elapsed: () => `${((performance.now() - started) / 1000).toFixed(0)} s`,
  };
  const multihop = MULTIHOP_SUITES.filter((s) => heldOut.includes(s));
  const out = multihop.length ? await multihopFolds(run, multihop) : [];
  if (heldOut.includes('squad-articles-dev')) out.push(await squadFold(run));
  return out;
}

/** The multi-hop suites held out in turn, each asked as it is, untitled, with its documents hidden and of the SQuAD articles; the parts trained on SQuAD and the wiki-pool's text as shipped. */
async function multihopFolds({ o, data, corpus, squadDev, elapsed }: Evaluation, suites: string[]): Promise<SuiteGeneralisation[]> {
  const out: SuiteGeneralisation[] = [];
  const full = await base(data, o, true);
  o.log(`trained the encoder, the reader and the term weights (${elapsed()})`);
  const sets = await openSets(data, o, full.model);
  const [wiki] = sets;
  const untitled = await untitledSet(wiki, corpus, full.model, o.threads);
  const other: TrainSet = {
    name: 'squad-articles-dev',
    store: await InProcessStore.open(squadDev.docs, full.model, o.threads),
    queries: [],
    judge: 'answer-passage',
    chains: false,
  };
  const answers = new AnswerText(corpus);
  o.log(`indexed the stores (${elapsed()})`);
  try {
    const items: Item[] = sets.flatMap((set) => set.queries.map((q) => ({ set, q })));
    for (const suite of suites) {
      const m = fitHeldOut(
        items.filter((it) => it.q.suite !== suite),
        full.theta,
        full.reader,
        o,
      );
      const queries = wiki.queries.filter((q) => q.suite === suite);
      const runs = askAll(wiki, queries, m);
      const loso = figures(runs);
      const foundConf = runs.filter((r) => r.found[KS.indexOf(K)]).map((r) => r.conf);
      const hidden = queries.map((q) => ask(wiki, q, m, q.gold).conf);
      const absent = queries.map((q) => answers.absent(q.answers, q.gold));
      const elsewhere = queries.map((q) => ask(other, q, m).conf);
      const untitledRuns = askAll(untitled, queries, m);
      out.push({
        suite,
        judge: 'all-gold-docs',
        loso,
        untitled: figures(untitledRuns),
        noAnswer: noAnswer(foundConf, hidden, absent, 'squad-articles-dev', elsewhere),
        questions: questionRuns(queries, runs, hidden, absent, elsewhere, untitledRuns),
      });
      o.log(`${suite} held out: all-gold@10 ${loso.found['@10'].toFixed(3)}, ECE ${loso.ece10.toFixed(3)} (${elapsed()})`);
    }
  } finally {
    for (const s of [...sets, untitled, other]) await s.store.close();
  }
  return out;
}

/** The SQuAD fold: nothing learned from SQuAD, not even the encoder's pairs, the term weights or the reader. */
async function squadFold({ o, data, corpus, queries, squadDev, elapsed }: Evaluation): Promise<SuiteGeneralisation> {
  const bare = await base(data, o, false);
  const wikiBare: TrainSet = {
    name: 'wiki-pool',
    store: await InProcessStore.open(corpus, bare.model, o.threads),
    queries,
    judge: 'all-gold-docs',
    chains: true,
  };
  const squadBare: TrainSet = {
    name: 'squad-articles-dev',
    store: await InProcessStore.open(squadDev.docs, bare.model, o.threads),
    queries: squadDev.queries,
    judge: 'answer-passage',
    chains: false,
  };
  // SQuAD-train's held-out articles as text only: the synthetic single-hop questions written from them, none of SQuAD's
  const articles = heldOutSquad(data, o);
  const synthetic: TrainSet = {
    name: 'squad-articles',
    store: await InProcessStore.open(articles.docs, bare.model, o.threads),
    queries: articles.synthetic,
    judge: 'answer-passage',
    chains: false,
  };
  o.log(`trained the encoder without SQuAD and indexed its stores (${elapsed()})`);
  try {
    const m = fitHeldOut(
      [...wikiBare.queries.map((q) => ({ set: wikiBare, q })), ...synthetic.queries.map((q) => ({ set: synthetic, q }))],
      bare.theta,
      undefined,
      o,
    );
    const runs = askAll(squadBare, squadDev.queries, m);
    const loso = figures(runs);
    const foundConf = runs.filter((r) => r.found[KS.indexOf(K)]).map((r) => r.conf);
    const hidden = squadDev.queries.map((q) => ask(squadBare, q, m, q.gold).conf);
    const texts = new Map(squadDev.docs.map((d) => [d.id, d.text]));
    const paragraph = squadDev.queries.map((q) => {
      if (q.paragraph === undefined) throw new Error(`squad-articles-dev question ${q.id} names no paragraph`);
      const [start, end] = paragraphRange(texts.get(q.gold[0]) ?? '', q.paragraph);
      return ask(squadBare, q, m, [], squadBare.store.rowsWithin(q.gold[0], start, end)).conf;
    });
    const answers = new AnswerText(squadDev.docs);
    const absent = squadDev.queries.map((q) => answers.absent(q.answers, q.gold));
    const squadSource = corpus.filter((d) => d.metadata.source === 'squad').map((d) => d.id);
    const elsewhere = squadDev.queries.map((q) => ask(wikiBare, q, m, squadSource).conf);
    o.log(
      `squad-articles-dev held out: hit@1 ${loso.found['@1'].toFixed(3)}, hit@5 ${loso.found['@5'].toFixed(3)}, ECE ${loso.ece10.toFixed(3)} (${elapsed()})`,
    );
    return {
      suite: 'squad-articles-dev',
      judge: 'answer-passage',
      loso,
      noAnswer: {
        ...noAnswer(foundConf, hidden, absent, 'wiki-pool without its SQuAD paragraphs', elsewhere),
        paragraphMean: mean(paragraph),
        paragraphAuroc: auroc(foundConf, paragraph),
      },
      questions: questionRuns(squadDev.queries, runs, hidden, absent, elsewhere, undefined, paragraph),
    };
  } finally {
    await wikiBare.store.close();
    await squadBare.store.close();
    await synthetic.store.close();
  }
}
