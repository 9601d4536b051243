// What the server needs for answers and content ingest, built once at start from the SVC_ENRICH_*
// settings and the model folder. Invariants: one EnrichClient is shared by answers and
// transcriptions and exists only when SVC_ENRICH_MODEL or SVC_VISION_MODEL is set; the native
// reader (loaded once from the verified model folder, see loadReader) answers only when no answer
// model is set.
import { Answerer, type NativeLoad } from '../answer/index.js';
import type { Config } from '../config.js';
import { ContentExtractor } from '../ingest-content/index.js';
import { EnrichClient } from '../llm/index.js';

export interface Enrichment {
  answerer: Answerer;
  extractor: ContentExtractor;
}

export function createEnrichment(enrich: Config['enrich'], native: NativeLoad): Enrichment {
  const visionModel = enrich.visionModel ?? enrich.model;
  const client =
    enrich.model || visionModel ? new EnrichClient({ url: enrich.url, apiKey: enrich.apiKey, timeoutMs: enrich.timeoutMs }) : undefined;
  const answerer = enrich.model && client ? new Answerer({}, { client, model: enrich.model }) : new Answerer(native);
  const extractor = new ContentExtractor(visionModel && client ? { client, model: visionModel } : undefined);
  return { answerer, extractor };
}
