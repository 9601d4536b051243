// Cuts a stream of documents into ingest request bodies. Invariants: a batch holds at most
// `batchSize` documents and its body (exactly the bytes sent) at most `batchBytes`, never the same
// id twice; cuts depend on the input order alone, so the same input gives the same bodies (and so
// the same Idempotency-Keys) on every run; a document that cannot fit in one request of
// MAX_REQUEST_BYTES raises DocumentTooLargeError before anything of it is sent. Each document is
// serialized once.
import type { DocumentInput } from '../api-types.js';
import { DocumentTooLargeError, InvalidRequestError, SvcError } from './errors.js';
import { utf8Length } from './web.js';

export const MAX_BATCH_DOCS = 1000;
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
const HEAD = '{"documents":[';
const TAIL = ']}';

export interface Batch {
  /** Position in the input (0-based) of the first document. */
  first: number;
  ids: string[];
  /** The request body, once the batch is complete. */
  body: string;
  bytes: number;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export class BatchCutter {
  private first = 0;
  private ids: string[] = [];
  private idSet = new Set<string>();
  private parts: string[] = [];
  private bytes = HEAD.length + TAIL.length;

  constructor(
    private readonly batchSize: number,
    private readonly batchBytes: number,
  ) {}

  /** Adds the document at `position`; returns the batch it closed, when it did not fit in the open one. */
  add(doc: DocumentInput, position: number): Batch | undefined {
    if (typeof doc?.id !== 'string' || doc.id === '') {
      throw new InvalidRequestError({
        message: `document #${position + 1} of the input has no id`,
        fix: 'Give every document a non-empty string id (the upsert key).',
      });
    }
    const json = JSON.stringify(doc);
    const bytes = utf8Length(json);
    if (HEAD.length + TAIL.length + bytes > MAX_REQUEST_BYTES) {
      throw new DocumentTooLargeError({
        message: `document '${doc.id}' (#${position + 1} of the input) is ${mb(bytes)} as JSON, over the ${mb(MAX_REQUEST_BYTES)} per-request limit; nothing of it was sent`,
        fix: `A document must fit in one request of at most ${mb(MAX_REQUEST_BYTES)}: split '${doc.id}' into several documents.`,
      });
    }
    const full = this.ids.length >= this.batchSize || this.bytes + 1 + bytes > this.batchBytes || this.idSet.has(doc.id);
    const closed = this.ids.length > 0 && full ? this.take(position) : undefined;
    this.bytes += (this.ids.length > 0 ? 1 : 0) + bytes;
    this.ids.push(doc.id);
    this.idSet.add(doc.id);
    this.parts.push(json);
    return closed;
  }

  /** Closes and returns the open batch (undefined when empty); the next starts at `next`. */
  take(next: number): Batch | undefined {
    if (this.ids.length === 0) return undefined;
    const batch = { first: this.first, ids: this.ids, body: `${HEAD}${this.parts.join(',')}${TAIL}`, bytes: this.bytes };
    this.first = next;
    this.ids = [];
    this.idSet = new Set();
    this.parts = [];
    this.bytes = HEAD.length + TAIL.length;
    return batch;
  }
}

/** Adds the batch's place in the input to a 4xx about its body (`body.documents[i]` names a position). */
export function annotate(err: unknown, batch: Batch, n: number): unknown {
  if (!(err instanceof SvcError) || err.status < 400 || err.status >= 500 || err.status === 429) return err;
  const m = /body\.documents(?:\[(\d+)\]|\.(\d+))/.exec(err.message);
  const i = m ? Number(m[1] ?? m[2]) : -1;
  const which =
    i >= 0 && i < batch.ids.length ? `; documents[${i}] is document '${batch.ids[i]}', #${batch.first + i + 1} of the input` : '';
  err.message += ` (batch ${n}: documents #${batch.first + 1} to #${batch.first + batch.ids.length} of the input${which})`;
  return err;
}
