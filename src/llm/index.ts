// The entry of src/llm: the OpenAI-compatible client (SVC_ENRICH_*) that answers (src/answer) and
// content ingest (src/ingest-content) share. One client is created per server (src/api/enrichment.ts).
export { type ChatMessage, DEFAULT_ENRICH_URL, EnrichClient, type EnrichSettings } from './llm-client.js';
