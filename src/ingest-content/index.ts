// The entry of src/ingest-content: the text of documents sent as `content` (PDF text layers, and
// images and scanned pages transcribed through src/llm), and the media types it accepts.
export { ContentExtractor } from './extract.js';
export { CONTENT_MEDIA_TYPES, type MediaType } from './media-types.js';
