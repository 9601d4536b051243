// The records a store keeps in LMDB (StoreMeta, DocRecord, IdempotencyRecord: persisted as they are,
// so a field may be added, never renamed or retyped) and the shapes store-db.ts's readers and writers
// exchange with it.
import type { Metadata } from '../api-types.js';

export interface StoreMeta {
  id: string;
  name: string;
  project: string;
  created_at: string;
  /** The model (name@version) that made the encodings the store holds (a later model of the same encoder reads them as they are). */
  model: string;
  /** The encoder that made them (Engine.encoder); absent in stores made before it was recorded, which are re-encoded at their first open. */
  encoder?: string;
  /** The text analysis (Engine.analyzer) the encodings were made with; absent in stores made before it was recorded. */
  analyzer?: string;
  /** The database holding the live encodings (absent: `enc`). */
  encodings?: EncodingsDb;
}

export type EncodingsDb = 'enc' | 'enc-b';

/** An entry of a store's change log: its key and its value ({at: 0, entry: ''}: before the first). */
export interface ChangePoint {
  at: number;
  entry: string;
}

/** A document changed since a point of the change log: `rows` when its passages may have changed (else its metadata, or it was deleted). */
export interface Changed {
  id: string;
  rows: boolean;
}

/** A document as re-encoding reads it: its text and record fields. */
export interface StoredText {
  id: string;
  text: string;
  metadata: Metadata;
  n_tokens: number;
}

export interface DocRecord {
  seq: number;
  metadata: Metadata;
  n_tokens: number;
  ingested_at: string;
  /** Set by an ingest and by a metadata update; absent in records written before it existed (read it as ingested_at). */
  updated_at?: string;
}

export interface DocSummary extends DocRecord {
  id: string;
}

/** A document ready to be written: text and record fields plus the engine's opaque encoding. */
export interface PreparedDoc {
  id: string;
  text: string;
  metadata: Metadata;
  n_tokens: number;
  encoding: Uint8Array;
}

export interface IdempotencyRecord {
  hash: string;
  status: number;
  body: unknown;
  created_at: number;
}
