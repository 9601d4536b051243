// The engine's index room (main thread): the in-memory index of one store (a list of immutable
// segments with dead flags, a document table, a metadata filter index, background merges), the
// dispatch of a search to a worker and the mapping of its rows back to documents, and the rendering
// of a search's trace.
export { createContext } from './context.js';
export { encodeBatch } from './encode.js';
export { compareCodePoints, compileFilter, filterSize, type MetadataPredicate } from './filter.js';
export { highlightSpans } from './highlight.js';
export { MemoryStoreIndex } from './store-index.js';
export type * from './types.js';
