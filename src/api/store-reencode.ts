// Re-encoding a store made by another encoder or text analysis (store-registry.ts runs it at start,
// while the server answers 503 `starting`): every document encoded again from its stored text in
// bounded batches, progress logged; the new encodings become live, recorded with the model, encoder
// and analysis that made them, in one transaction, so a crash leaves the old encodings or the new ones.
import type { Engine } from '../engine/index.js';
import type { StoreDb } from '../store/index.js';

/** Re-encoding batch bounds: documents, and characters of text held in memory at once. */
const REENCODE_DOCS = 500;
const REENCODE_CHARS = 8_000_000;

type Log = (msg: string, fields?: Record<string, unknown>) => void;

/** Encodes every document of `db` again with the engine's model and text analysis (StoreDb stages them, then commitStaged). */
export async function reencode(engine: Engine, project: string, db: StoreDb, log: Log): Promise<void> {
  const made = { model: engine.model, encoder: engine.encoder, analyzer: engine.analyzer };
  const total = db.nDocs;
  const fields = { project, store: db.meta.name, id: db.meta.id, from: db.meta.model, to: made.model };
  const started = performance.now();
  if (db.meta.encoder !== made.encoder)
    log('store re-encoding with the new model', { ...fields, encoder: { from: db.meta.encoder ?? null, to: made.encoder }, docs: total });
  else
    log('store re-encoding with the new text analysis', {
      ...fields,
      analyzer: { from: db.meta.analyzer ?? null, to: made.analyzer },
      docs: total,
    });
  await db.clearStaged();
  const changed = new Map<string, number>();
  let done = 0;
  let nextReport = 0.1;
  for (const batch of db.textBatches(REENCODE_DOCS, REENCODE_CHARS)) {
    const encoded = await engine.encode(batch);
    await db.stageEncodings(encoded.docs);
    encoded.docs.forEach((d, i) => {
      if (d.nTokens !== batch[i].n_tokens) changed.set(d.id, d.nTokens);
    });
    done += batch.length;
    if (done < total && done / total >= nextReport) {
      log('store re-encoding progress', { ...fields, docs: done, of: total, pct: Math.floor((100 * done) / total) });
      while (done / total >= nextReport) nextReport += 0.1;
    }
  }
  await db.commitStaged(made, changed);
  log('store re-encoded', { ...fields, docs: done, ms: Math.round(performance.now() - started) });
}
