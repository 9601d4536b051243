// Encoding a batch of documents on the workers, in the pool's background lane: documents go in
// chunks of WORKERS.encodeChunk, run in parallel, each coming back with its prebuilt segment; a
// document over WORKERS.largeDocChars is encoded in pieces instead (segment/encode-large.ts): its
// regions' passages found, analysed and encoded, one task each, so that it uses every worker and
// no task of it is long. Its title is read here (the start of the text, as the `encode` op reads
// it), and where its sections start, from the headings the workers found (and titled).
// Invariant: the batch's documents come back in the order given, each encoded exactly as the
// `encode` op encodes it.
import { denseScratchBytes } from '../model/index.js';
import { WORKERS } from '../params.js';
import {
  type AssembleArgs,
  type AssemblePiece,
  assembleMoves,
  type EncodeResult,
  type PieceResult,
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

/**
 * One document in pieces: how it is read decided, then its regions of about WORKERS.pieceChars
 * each found, analysed and encoded (passages, headings and their titles), then assembled. Two
 * tasks per worker in flight: one waits behind each running one, so that no worker idles while its
 * next task is sent (and a search still goes before the waiting one); no more than the pool
 * queues, so that a pool without a queue still takes the document, a task at a time.
 */
async function encodeLarge(ctx: EngineContext, d: Doc): Promise<EncodeResult> {
  const inFlight = Math.min(2 * ctx.pool.threads, ctx.pool.threads + ctx.pool.maxQueue);
  // how the text is read, decided on a worker (a pass over the whole text) as the encode op decides it
  const docTitle = documentTitle(d.text, { title: d.metadata?.title });
  const title = analyzeTitle(docTitle);
  const { reading } = await ctx.pool.run<ReadingResult>('reading', { text: d.text, title: docTitle } satisfies ReadingArgs, BACKGROUND);
  const dim = ctx.model.params.dense?.dim ?? 0;
  const pieces = await inTurn(
    passageRegions(d.text, Math.ceil(d.text.length / WORKERS.pieceChars), MAX_PASSAGE, reading),
    inFlight,
    (region) =>
      ctx.withScratch<PieceResult>(
        'encodePiece',
        denseScratchBytes(dim),
        { text: d.text.slice(region.from, region.to), region },
        BACKGROUND,
      ),
  );
  const starts: number[] = [];
  for (const p of pieces) for (let i = 0; i < p.spans.length; i += 2) starts.push(p.spans[i]);
  const found = sectionStarts(
    pieces.flatMap((p) => p.headings),
    starts,
  );
  // what the worker that assembles the pieces reads of them moves there (nothing here reads it again), and only that is sent
  const parts: AssemblePiece[] = pieces.map(({ nPassages, records, titles }) => ({ nPassages, records, titles }));
  const args: AssembleArgs = {
    pieces: parts,
    ...title,
    sectionFirst: Uint32Array.from(found, (s) => s.first),
    sectionHeading: Uint32Array.from(found, (s) => s.index),
  };
  const moved = [...parts.flatMap(assembleMoves), args.sectionFirst.buffer, args.sectionHeading.buffer] as ArrayBuffer[];
  return ctx.pool.run<EncodeResult>('assemble', args, BACKGROUND, moved);
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
