// The native reader: an extractive answer (a span of the passages) chosen by two linear stages
// (reader-sentences.ts, then reader-spans.ts, over reader-context.ts) whose weights live in the model folder as `reader.json`. Invariants: the
// answer is an exact substring passages[i].text.slice(start, end) of one passage (widened only by
// an adjacent currency or percent sign); a reader file whose feature lists differ from this code's
// is refused, never silently misread; reading allocates only per question and passage.
import { hash32 } from '../engine/index.js';
import { prepare } from './reader-context.js';
import { DotSink, SENT_NAMES, scoreSentences, topSentences } from './reader-sentences.js';
import { forEachSpan, HASH_FEATURES, SPAN_NAMES, spanFeatures } from './reader-spans.js';

export const READER_FILE = 'reader.json';
export const READER_FORMAT = 'svc-reader/1';

export interface ReaderFile {
  format: typeof READER_FORMAT;
  sentence: { names: string[]; weights: number[] };
  /** weights: base64 of float32 [names.length + 2^hash_bits] (dense features, then the hashed table) */
  span: { names: string[]; hash_features: string[]; hash_bits: number; weights: string };
  /** idf of a stem: table[hash32(stem) & (2^bits - 1)] / scale, or `unseen` where the byte is 0 */
  idf: { bits: number; scale: number; unseen: number; table: string };
  training?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
}

export interface ReaderAnswer {
  text: string;
  /** index of the passage holding the answer */
  passage: number;
  start: number;
  end: number;
  /** probability of the span among the candidates read */
  p: number;
}

/** bestSentence of a passage without a sentence: a low logit (every head passage of the training questions scored above 0). */
const NO_SENTENCE = -10;

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export class NativeReader {
  private readonly sentW: Float64Array;
  private readonly spanW: Float32Array;
  private readonly mask: number;
  private readonly idfTable: Uint8Array;
  private readonly idfScale: number;
  private readonly idfUnseen: number;
  private readonly idfMask: number;

  constructor(readonly file: ReaderFile) {
    if (file.format !== READER_FORMAT) throw new Error(`reader format ${String(file.format)} is not ${READER_FORMAT}`);
    if (!same(file.sentence.names, SENT_NAMES) || !same(file.span.names, SPAN_NAMES) || !same(file.span.hash_features, HASH_FEATURES)) {
      throw new Error('reader.json was trained with other features than this version of svc computes');
    }
    this.sentW = Float64Array.from(file.sentence.weights);
    const wb = Buffer.from(file.span.weights, 'base64');
    this.spanW = new Float32Array(wb.buffer.slice(wb.byteOffset, wb.byteOffset + wb.byteLength));
    this.mask = (1 << file.span.hash_bits) - 1;
    if (this.spanW.length !== SPAN_NAMES.length + this.mask + 1)
      throw new Error(`reader.json span weights hold ${this.spanW.length} values, not ${SPAN_NAMES.length + this.mask + 1}`);
    this.idfTable = new Uint8Array(Buffer.from(file.idf.table, 'base64'));
    if (this.idfTable.length !== 1 << file.idf.bits) throw new Error('reader.json idf table has the wrong size');
    this.idfMask = (1 << file.idf.bits) - 1;
    this.idfScale = file.idf.scale;
    this.idfUnseen = file.idf.unseen;
  }

  static parse(buf: Uint8Array): NativeReader {
    return new NativeReader(JSON.parse(Buffer.from(buf).toString('utf8')) as ReaderFile);
  }

  idf = (stem: string): number => {
    const v = this.idfTable[hash32(stem) & this.idfMask];
    return v === 0 ? this.idfUnseen : v / this.idfScale;
  };

  /** The logit of the passage's best sentence for the question (NO_SENTENCE when it has none). */
  bestSentence(question: string, passage: string): number {
    const ctx = prepare(question, [passage], this.idf);
    if (ctx.sents.length === 0) return NO_SENTENCE;
    scoreSentences(ctx, this.sentW);
    return ctx.maxLogit;
  }

  /** The best span of the passages (best passage first) for the question, or undefined when they hold no candidate. */
  read(question: string, passages: string[]): ReaderAnswer | undefined {
    const ctx = prepare(question, passages, this.idf);
    if (ctx.sents.length === 0) return undefined;
    scoreSentences(ctx, this.sentW);
    const dot = new DotSink(this.spanW);
    let best: { si: number; s: number; e: number; z: number } | undefined;
    const zs: number[] = [];
    for (const si of topSentences(ctx)) {
      forEachSpan(ctx, si, (s, e) => {
        dot.sum = 0;
        spanFeatures(ctx, si, s, e, this.mask, dot);
        zs.push(dot.sum);
        if (!best || dot.sum > best.z) best = { si, s, e, z: dot.sum };
      });
    }
    if (!best) return undefined;
    const top = best;
    const p = 1 / zs.reduce((acc, z) => acc + Math.exp(z - top.z), 0);
    const sent = ctx.sents[top.si];
    const { w } = ctx.passages[sent.p];
    let start = w.start[top.s];
    let end = w.end[top.e - 1];
    if (start > 0 && /[$£€¥]/.test(w.text[start - 1])) start--;
    if (w.text[end] === '%') end++;
    return { text: w.text.slice(start, end), passage: sent.p, start, end, p };
  }
}
