// Encoding a batch of documents on the workers, in the pool's background lane: documents go in
// chunks of WORKERS.encodeChunk, run in parallel, each coming back with its prebuilt segment; a
// document over WORKERS.largeDocChars is encoded in pieces instead (segment/encode-large.ts): its
// passages found region by region, then its pieces encoded, so that it uses every worker and no
// task of it is long. Its title is read here (the start of the text, as the `encode` op reads it),
// and where its sections start, from the headings the workers found.
// Invariant: the batch's documents come back in the order given, each encoded exactly as the
// `encode` op encodes it.
import { denseScratchBytes } from '../model/index.js';
import { WORKERS } from '../params.js';
import {
  type AssembleArgs,
  type EncodeResult,
  type PassagesArgs,
  type PassagesResult,
  type PieceResult,
  pieceMoves,
  type ReadingArgs,
  type ReadingResult,
} from '../segment/index.js';
import { analyzeTitle, documentTitle, MAX_PASSAGE, passageRegions, sectionStarts } from '../text/index.js';
import type { EncodedBatch, Metadata } from '../types.js';
import type { EngineContext, SegmentBatch } from './types.js';

type Doc = { id: string; text: string; metadata?: Metadata };

const BACKGROUND = { background: true };

/** Every item of `items` through `fn`, at most `n` at a time; the results in the items' order. */
async function inTurn<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}

function concatU32(parts: Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * One document in pieces: how it is read decided, its passages found region by region, its
 * pieces encoded, then assembled. Two tasks per worker in flight: one waits behind each running one, so that no worker
 * idles while its next task is sent (and a search still goes before the waiting one); no more than
 * the pool queues, so that a pool without a queue still takes the document, a task at a time.
 */
async function encodeLarge(ctx: EngineContext, d: Doc): Promise<EncodeResult> {
  const inFlight = Math.min(2 * ctx.pool.threads, ctx.pool.threads + ctx.pool.maxQueue);
  // how the text is read, decided on a worker (a pass over the whole text) as the encode op decides it
  const docTitle = documentTitle(d.text, { title: d.metadata?.title });
  const { reading } = await ctx.pool.run<ReadingResult>('reading', { text: d.text, title: docTitle } satisfies ReadingArgs, BACKGROUND);
  const regions = await inTurn(
    passageRegions(d.text, Math.ceil(d.text.length / WORKERS.regionChars), MAX_PASSAGE, reading),
    inFlight,
    (region) =>
      ctx.pool.run<PassagesResult>('passages', { text: d.text.slice(region.from, region.to), region } satisfies PassagesArgs, BACKGROUND),
  );
  const spans = concatU32(regions.map((r) => r.spans));
  // pieces: runs of whole passages of at most pieceChars of text each (a longer passage alone)
  const cuts: number[] = [0];
  for (let i = 2; i < spans.length; i += 2) if (spans[i + 1] - spans[2 * cuts[cuts.length - 1]] > WORKERS.pieceChars) cuts.push(i / 2);
  const dim = ctx.model.params.dense?.dim ?? 0;
  const pieces = await inTurn(
    cuts.map((from, k) => [from, k + 1 < cuts.length ? cuts[k + 1] : spans.length / 2]),
    inFlight,
    ([from, to]) => {
      const offset = spans[2 * from];
      return ctx.withScratch<PieceResult>(
        'encodePiece',
        denseScratchBytes(dim),
        { text: d.text.slice(offset, spans[2 * to - 1]), offset, spans: spans.subarray(2 * from, 2 * to) },
        BACKGROUND,
      );
    },
  );
  const title = analyzeTitle(d.text, { title: d.metadata?.title });
  const starts = new Uint32Array(spans.length / 2);
  for (let i = 0; i < starts.length; i++) starts[i] = spans[2 * i];
  const found = sectionStarts(
    regions.flatMap((r) => r.headings),
    starts,
  );
  // the pieces move to the worker that assembles them: nothing here reads them again
  const moved = pieces.flatMap(pieceMoves) as ArrayBuffer[];
  return ctx.pool.run<EncodeResult>('assemble', { pieces, ...title, sectionStarts: found } satisfies AssembleArgs, BACKGROUND, moved);
}

export async function encodeBatch(ctx: EngineContext, docs: Doc[]): Promise<EncodedBatch> {
  // units in the order of the documents: chunks of ordinary documents, and each large one alone
  const units: Array<{ docs: Doc[]; large: boolean }> = [];
  for (const d of docs) {
    const large = d.text.length > WORKERS.largeDocChars;
    const last = units[units.length - 1];
    if (!large && last && !last.large && last.docs.length < WORKERS.encodeChunk) last.docs.push(d);
    else units.push({ docs: [d], large });
  }
  const dim = ctx.model.params.dense?.dim ?? 0;
  const results = await Promise.all(
    units.map((u) =>
      u.large
        ? encodeLarge(ctx, u.docs[0])
        : ctx.withScratch<EncodeResult>(
            'encode',
            denseScratchBytes(dim),
            { docs: u.docs.map((d) => ({ text: d.text, title: d.metadata?.title })) },
            BACKGROUND,
          ),
    ),
  );
  const out: EncodedBatch = { docs: [], segments: [] };
  results.forEach((r, ui) => {
    const unit = units[ui].docs;
    r.docs.forEach((e, i) => {
      out.docs.push({ id: unit[i].id, metadata: unit[i].metadata ?? {}, nTokens: e.nTokens, passages: e.passages, encoding: e.blob });
    });
    const seg: SegmentBatch = { built: r.built, docs: unit.map((d) => ({ id: d.id, metadata: d.metadata ?? {} })) };
    out.segments.push(seg);
  });
  return out;
}
