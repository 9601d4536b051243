// The request and response limits, once: the schemas (schemas.ts, schemas-search.ts) state them
// in their descriptions and Ajv enforces them; handlers read them where a check is not a schema's
// (a request's bytes, a listing's scan). Invariant: a limit changes here only.
export const LIMITS = {
  storeName: { pattern: '^[a-z0-9_-]{1,64}$' },
  docsPerRequest: 1000,
  requestBytes: 32 * 1024 * 1024,
  docIdBytes: 512,
  metadataKeys: 64,
  metadataKeyChars: 128,
  metadataStringChars: 4096,
  queryChars: 4096,
  filter: { depth: 8, operators: 256, inValues: 1024 },
  /** documents a filtered listing reads for one page, at most (a page can then hold fewer than `limit`) */
  listScan: 10_000,
  maxHops: { min: 1, max: 8, default: 4 },
  maxResults: { min: 1, max: 100, default: 10 },
  pageLimit: { min: 1, max: 100, default: 20 },
  idempotencyKeyChars: 255,
  batchSearches: 32,
} as const;
