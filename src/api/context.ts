// What a request handler receives and returns. Handlers are plain functions of a validated request
// (project resolved by auth, defaults applied by validation); the router adapts them to Express.
import type { IncomingHttpHeaders } from 'node:http';
import type { Enrichment } from '../answer/enrichment.js';
import type { NativeReader } from '../answer/reader.js';
import type { Engine, RerankParams } from '../engine/index.js';
import type { KeyRing } from '../store/keys.js';
import type { FairGate } from './fair-gate.js';
import type { StoreRegistry } from './store-registry.js';

export interface Rerank {
  reader: NativeReader;
  params: RerankParams;
}

export interface Services {
  version: string;
  engine: Engine;
  registry: StoreRegistry;
  keys: KeyRing;
  /** `starting` until the model and stores are loaded, `stopping` once shutdown began. */
  state: 'starting' | 'ok' | 'stopping';
  openapi: Record<string, unknown>;
  /** Answers (search answer=true) and content ingest (images, PDFs). */
  enrichment: Enrichment;
  /** The reader's re-ranking of one-hop results (answer/rerank.ts); absent: the engine's order. */
  rerank?: Rerank;
  /** Fair admission of engine work across projects (fair-gate.ts); absent: none. */
  gate?: FairGate;
}

export interface Ctx {
  project: string;
  params: Record<string, string>;
  query: Record<string, any>;
  body: any;
  headers: IncomingHttpHeaders;
  requestId: string;
  services: Services;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Promise<Reply> | Reply;
