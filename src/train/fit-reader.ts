// Trains the native reader (src/answer/reader.ts) on SQuAD v1.1 train and returns its model-folder
// file `reader.json`. Per question, the passages are the article's paragraphs ranked by BM25 for the
// question (top 10, as a search would return them); stage 1 (sentences) learns which sentence holds
// an answer string, stage 2 (spans in the stage-1 top sentences) which span is one, each a sparse
// softmax fitted with L-BFGS. Articles with crc32(title) % 10 = 0 are held out and measured (exact
// match and F1, SQuAD normalisation). Deterministic for given data and options: the file holds no
// timing, so training twice writes the same bytes.
import zlib from 'node:zlib';
import {
  forEachSpan,
  HASH_FEATURES,
  NativeReader,
  normalizeAnswer,
  READER_FORMAT,
  type ReaderFile,
  SENT_NAMES,
  SPAN_NAMES,
  scoreAnswer,
  scoreSentences,
  sentenceFeatures,
  spanFeatures,
  topSentences,
} from '../answer/index.js';
import type { DataFolder, SquadParagraph } from './data.js';
import { article, buildIdf, contextOf, type Example, IDF_BITS, IDF_SCALE, PASSAGES, rank } from './reader-data.js';
import { fitSparseSoftmax, SparseGroups } from './reader-softmax.js';

export interface FitReaderOptions {
  /** Training questions (spread over the training articles); default 30000. */
  questions?: number;
  /** Held-out questions measured; default 3000. */
  evalQuestions?: number;
  hashBits?: number;
  l2Sentence?: number;
  /** L2 penalty of the dense span features, and of the hashed lexical ones */
  l2Span?: number;
  l2Hashed?: number;
}

export interface ReaderMetrics {
  train_questions: number;
  heldout_questions: number;
  /** on held-out articles, passages = top-10 BM25 paragraphs of the article */
  heldout_em: number;
  heldout_f1: number;
  heldout_sentence_top1: number;
  heldout_candidate_recall: number;
}

const DEFAULTS: Required<FitReaderOptions> = {
  questions: 30000,
  evalQuestions: 3000,
  hashBits: 18,
  l2Sentence: 1e-4,
  l2Span: 1e-5,
  l2Hashed: 3e-4,
};

/** The reader trained on SQuAD v1.1 train of the shared data folder: the `reader.json` file of the model folder and its held-out figures. */
export function fitReader(
  data: DataFolder,
  log: (msg: string) => void,
  opts: FitReaderOptions = {},
): { file: Uint8Array; metrics: ReaderMetrics } {
  return fitReaderOn(data.squadTrain(), log, opts);
}

/** The same, on any SQuAD-shaped paragraphs. */
export function fitReaderOn(
  paragraphs: SquadParagraph[],
  log: (msg: string) => void,
  options: FitReaderOptions = {},
): { file: Uint8Array; metrics: ReaderMetrics } {
  const opts = { ...DEFAULTS, ...options };
  const started = performance.now();
  const secs = () => (performance.now() - started) / 1000;
  const byTitle = new Map<string, SquadParagraph[]>();
  for (const p of paragraphs) byTitle.set(p.title, [...(byTitle.get(p.title) ?? []), p]);
  const titles = [...byTitle.keys()].sort();
  const articles = titles.map((t) => article(byTitle.get(t)!.sort((x, y) => x.para_idx - y.para_idx)));
  const { table, unseen, idf } = buildIdf(articles);
  const heldOut = (t: string) => zlib.crc32(t) % 10 === 0;
  const examples = (keep: (t: string) => boolean): Example[] =>
    titles.flatMap((t, i) =>
      keep(t)
        ? articles[i].paras.flatMap((p) => p.qas.map((qa) => ({ art: articles[i], question: qa.question, answers: qa.answers })))
        : [],
    );
  const spread = (xs: Example[], n: number) =>
    xs.length <= n ? xs : Array.from({ length: n }, (_, k) => xs[Math.floor((k * xs.length) / n)]);
  const train = spread(
    examples((t) => !heldOut(t)),
    opts.questions,
  );
  const evalSet = spread(examples(heldOut), opts.evalQuestions);
  log(
    `reader: ${articles.length} SQuAD articles, ${train.length} training and ${evalSet.length} held-out questions (${secs().toFixed(0)} s)`,
  );

  const sentData = new SparseGroups();
  for (const ex of train) {
    const { ctx, sentPos } = contextOf(ex, idf);
    ctx.sents.forEach((_, si) => {
      sentenceFeatures(ctx, si, sentData);
      sentData.endCandidate(sentPos[si]);
    });
    sentData.endGroup(sentPos.some(Boolean));
  }
  const sentW = fitSparseSoftmax(sentData, SENT_NAMES.length, opts.l2Sentence);
  log(`reader: sentence stage fitted on ${sentData.groups} questions, ${sentData.candidates} sentences (${secs().toFixed(0)} s)`);

  const hashBits = opts.hashBits;
  const mask = (1 << hashBits) - 1;
  const spanData = new SparseGroups();
  for (const ex of train) {
    const { ctx, golds } = contextOf(ex, idf);
    scoreSentences(ctx, sentW);
    let any = false;
    for (const si of topSentences(ctx)) {
      const { w } = ctx.passages[ctx.sents[si].p];
      forEachSpan(ctx, si, (s, e) => {
        spanFeatures(ctx, si, s, e, mask, spanData);
        const pos = golds.has(normalizeAnswer(w.text.slice(w.start[s], w.end[e - 1])));
        any ||= pos;
        spanData.endCandidate(pos);
      });
    }
    spanData.endGroup(any);
  }
  log(
    `reader: span stage: ${spanData.groups} questions, ${spanData.candidates} spans, ${spanData.nnz} feature values (${secs().toFixed(0)} s)`,
  );
  const spanW = fitSparseSoftmax(spanData, SPAN_NAMES.length + mask + 1, [opts.l2Span, SPAN_NAMES.length, opts.l2Hashed], 200);
  log(`reader: span stage fitted (${secs().toFixed(0)} s)`);

  const file: ReaderFile = {
    format: READER_FORMAT,
    sentence: { names: SENT_NAMES, weights: Array.from(sentW, (v) => Math.fround(v)) },
    span: {
      names: SPAN_NAMES,
      hash_features: HASH_FEATURES,
      hash_bits: hashBits,
      weights: Buffer.from(Float32Array.from(spanW).buffer).toString('base64'),
    },
    idf: { bits: IDF_BITS, scale: IDF_SCALE, unseen, table: Buffer.from(table).toString('base64') },
  };
  const reader = new NativeReader(file);
  let em = 0;
  let f1 = 0;
  let top1 = 0;
  let recall = 0;
  for (const ex of evalSet) {
    const { ctx, sentPos, golds } = contextOf(ex, idf);
    scoreSentences(ctx, sentW);
    const top = topSentences(ctx);
    if (sentPos[top[0]]) top1++;
    let reachable = false;
    for (const si of top) {
      const { w } = ctx.passages[ctx.sents[si].p];
      forEachSpan(ctx, si, (s, e) => (reachable ||= golds.has(normalizeAnswer(w.text.slice(w.start[s], w.end[e - 1])))));
    }
    if (reachable) recall++;
    const order = rank(ex.art, ex.question, idf);
    const got = reader.read(
      ex.question,
      order.map((i) => ex.art.paras[i].context),
    );
    const sc = scoreAnswer(got?.text ?? '', ex.answers);
    em += sc.em;
    f1 += sc.f1;
  }
  const n = Math.max(1, evalSet.length);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  const metrics: ReaderMetrics = {
    train_questions: spanData.groups,
    heldout_questions: evalSet.length,
    heldout_em: r4(em / n),
    heldout_f1: r4(f1 / n),
    heldout_sentence_top1: r4(top1 / n),
    heldout_candidate_recall: r4(recall / n),
  };
  log(
    `reader: held-out EM ${metrics.heldout_em} F1 ${metrics.heldout_f1} (sentence top-1 ${metrics.heldout_sentence_top1}, candidate recall ${metrics.heldout_candidate_recall}; ${secs().toFixed(0)} s)`,
  );
  file.training = {
    data: 'SQuAD v1.1 train (data/squad-v1.1-train.jsonl)',
    heldout: 'articles with crc32(title) % 10 = 0',
    passages: `top ${PASSAGES} BM25 paragraphs of the article`,
    ...opts,
  };
  file.metrics = { ...metrics };
  return { file: new TextEncoder().encode(JSON.stringify(file)), metrics };
}
