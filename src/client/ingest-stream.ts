// Streaming ingest: batches cut by ingest-batches.ts, sent several at a time. Invariants:
// - Each batch's Idempotency-Key is a hash of the scope and the exact body: a retry, or a re-run with
//   the same scope and input, is answered from the server's record and never applied twice.
// - At most `concurrency` batches are in flight and one more is being filled, so memory is bounded;
//   a batch holding an id that an earlier batch in flight also holds waits for it, so the last
//   version of a document in the input is the one that stays.
// - On the first error, or when `stop` aborts, no new batch starts (the partly filled one is dropped,
//   so a re-run cuts it the same way), the batches in flight finish, then it throws or returns.
//   `signal` aborts the batches in flight too and rejects with its reason.
import type { DocumentInput } from '../api-types.js';
import type { CallOptions } from './config.js';
import { InvalidRequestError } from './errors.js';
import { annotate, type Batch, BatchCutter, MAX_BATCH_DOCS, MAX_REQUEST_BYTES } from './ingest-batches.js';
import type { Transport } from './transport.js';
import { randomId, sha256Hex } from './web.js';

export { MAX_BATCH_DOCS, MAX_REQUEST_BYTES };

export interface IngestProgress {
  /** Documents taken from the input so far. */
  read: number;
  /** Documents the server acknowledged (written now, or earlier under the same key). */
  documents: number;
  /** Of `documents`, those an earlier request with the same Idempotency-Key had already written. */
  replayedDocuments: number;
  batches: number;
  replayedBatches: number;
  /** Request bytes acknowledged. */
  bytes: number;
  /** Batches sent and not yet answered. */
  inFlight: number;
}

export interface IngestTotals extends Omit<IngestProgress, 'inFlight'> {
  /** True when `stop` ended the ingest before the input did. */
  stopped: boolean;
  elapsedMs: number;
}

export interface IngestStreamOptions extends CallOptions {
  /** Documents per batch, 1 to 1000 (default 1000). */
  batchSize?: number;
  /** Request body bytes per batch, up to 32 MB (default 32 MB). */
  batchBytes?: number;
  /** Batches in flight at once (default 4). */
  concurrency?: number;
  /**
   * Mixed into every batch's Idempotency-Key. Default: random per call, so only retries within the
   * call are deduplicated. Give a fixed scope to make a re-run of the same input skip the batches an
   * earlier run completed (the server keeps keys 24 hours): what a resumable import wants.
   */
  idempotencyScope?: string;
  onProgress?: (progress: IngestProgress) => void;
  /** Graceful stop: no new batch starts; batches in flight finish; resolves with `stopped: true`. */
  stop?: AbortSignal;
}

function intOption(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidRequestError({ message: `${name} is ${value}`, fix: `Give ${name} as an integer from 1 to ${max}.` });
  }
  return value;
}

export async function ingestStream(
  transport: Transport,
  store: string,
  source: AsyncIterable<DocumentInput> | Iterable<DocumentInput>,
  opts: IngestStreamOptions = {},
): Promise<IngestTotals> {
  const started = Date.now();
  const batchSize = intOption('batchSize', opts.batchSize, MAX_BATCH_DOCS, MAX_BATCH_DOCS);
  const batchBytes = intOption('batchBytes', opts.batchBytes, MAX_REQUEST_BYTES, MAX_REQUEST_BYTES);
  const concurrency = intOption('concurrency', opts.concurrency, 4, 64);
  const scope = opts.idempotencyScope ?? randomId();
  const { signal, stop, onProgress } = opts;
  const progress: IngestProgress = { read: 0, documents: 0, replayedDocuments: 0, batches: 0, replayedBatches: 0, bytes: 0, inFlight: 0 };
  const inFlight = new Set<Promise<void>>();
  const holder = new Map<string, Promise<void>>(); // id -> the latest batch in flight holding it
  let failure: { error: unknown } | undefined;
  let launched = 0;

  const launch = (batch: Batch) => {
    const n = ++launched;
    const waitFor = new Set(batch.ids.map((id) => holder.get(id)).filter((p): p is Promise<void> => p !== undefined));
    const send = async () => {
      if (waitFor.size > 0) await Promise.all(waitFor);
      if (failure) return;
      // a batch launched before a failure is still sent (the failure only stops new ones)
      const key = `ingest-${await sha256Hex(`${scope}\n${batch.body}`)}`;
      progress.inFlight++;
      try {
        const reply = await transport.call(
          'ingestDocuments',
          { path: { store }, headers: { 'Idempotency-Key': key }, rawBody: batch.body },
          { signal, timeoutMs: opts.timeoutMs, maxAttempts: opts.maxAttempts },
        );
        const replayed = reply.headers.get('idempotent-replayed') === 'true';
        progress.documents += batch.ids.length;
        progress.batches++;
        progress.bytes += batch.bytes;
        if (replayed) {
          progress.replayedDocuments += batch.ids.length;
          progress.replayedBatches++;
        }
      } finally {
        progress.inFlight--;
      }
      onProgress?.({ ...progress });
    };
    const task: Promise<void> = send()
      .catch((err: unknown) => {
        failure ??= { error: annotate(err, batch, n) };
      })
      .finally(() => {
        inFlight.delete(task);
        for (const id of batch.ids) if (holder.get(id) === task) holder.delete(id);
      });
    inFlight.add(task);
    for (const id of batch.ids) holder.set(id, task);
  };

  const freeSlot = async () => {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
  };

  let onEnd = () => {};
  const ended = new Promise<'ended'>((resolve) => (onEnd = () => resolve('ended')));
  for (const s of [stop, signal]) s?.addEventListener('abort', onEnd, { once: true });
  const halted = () => failure !== undefined || stop?.aborted === true || signal?.aborted === true;
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<DocumentInput>)[Symbol.iterator]();
  const cutter = new BatchCutter(batchSize, batchBytes);
  let pending = false;
  let exhausted = false;
  try {
    for (;;) {
      if (halted()) break;
      pending = true;
      const next = await Promise.race([iterator.next(), ended]);
      if (next === 'ended') break;
      pending = false;
      const closed = next.done ? cutter.take(progress.read) : cutter.add(next.value, progress.read++);
      if (closed) {
        await freeSlot();
        if (halted()) break;
        launch(closed);
      }
      if (next.done) {
        exhausted = true;
        break;
      }
    }
  } catch (err) {
    failure ??= { error: err };
  } finally {
    for (const s of [stop, signal]) s?.removeEventListener('abort', onEnd);
    const closing = iterator.return?.();
    if (!pending) await Promise.resolve(closing).catch(() => undefined);
    else void Promise.resolve(closing).catch(() => undefined);
  }
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (signal?.aborted) throw signal.reason;
  if (failure) throw failure.error;
  const { inFlight: _, ...totals } = progress;
  return { ...totals, stopped: !exhausted, elapsedMs: Date.now() - started };
}
