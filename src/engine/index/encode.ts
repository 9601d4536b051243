// Encoding a batch of documents on the workers, in the pool's background lane: documents go in
// chunks of WORKERS.encodeChunk, run in parallel, each coming back with its prebuilt segment; a
// document over WORKERS.largeDocChars is encoded in pieces instead (segment/encode-large.ts), at
// most one piece per worker in flight, so that it uses every worker and no task of it is long.
// Invariant: the batch's documents come back in the order given, each encoded exactly as the
// `encode` op encodes it.
import { denseScratchBytes } from '../model/index.js';
import { WORKERS } from '../params.js';
import type { AssembleArgs, EncodeResult, PassagesArgs, PassagesResult, PieceResult } from '../segment/index.js';
import type { EncodedBatch, Metadata } from '../types.js';
import type { EngineContext, SegmentBatch } from './types.js';

type Doc = { id: string; text: string; metadata?: Metadata };

const BACKGROUND = { background: true };

/** One document in pieces: its passages cut on a worker, pieces encoded `pool.threads` at a time, then assembled. */
async function encodeLarge(ctx: EngineContext, d: Doc): Promise<EncodeResult> {
  const head = await ctx.pool.run<PassagesResult>(
    'passages',
    { text: d.text, title: d.metadata?.title } satisfies PassagesArgs,
    BACKGROUND,
  );
  // pieces: runs of whole passages of at most pieceChars of text each (a longer passage alone)
  const cuts: number[] = [0];
  const spans = head.spans;
  for (let i = 2; i < spans.length; i += 2) if (spans[i + 1] - spans[2 * cuts[cuts.length - 1]] > WORKERS.pieceChars) cuts.push(i / 2);
  const dim = ctx.model.params.dense?.dim ?? 0;
  const pieces = new Array<PieceResult>(cuts.length);
  let next = 0;
  const lane = async () => {
    while (next < cuts.length) {
      const k = next++;
      const from = cuts[k];
      const to = k + 1 < cuts.length ? cuts[k + 1] : spans.length / 2;
      const offset = spans[2 * from];
      pieces[k] = await ctx.withScratch<PieceResult>(
        'encodePiece',
        denseScratchBytes(dim),
        { text: d.text.slice(offset, spans[2 * to - 1]), offset, spans: spans.subarray(2 * from, 2 * to) },
        BACKGROUND,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.pool.threads, cuts.length) }, lane));
  return ctx.pool.run<EncodeResult>('assemble', { pieces, title: head.title, baseLen: head.baseLen } satisfies AssembleArgs, BACKGROUND);
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
