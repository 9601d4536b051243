// The retry policy. A failed attempt is retried only when repeating it cannot apply a change twice:
// every 429 (the server refuses before doing anything), and for idempotent operations also a
// dropped or refused connection (a refused one only with retryRefused, the default), 500, 502, 503 and 504. Waits grow exponentially with jitter (half
// fixed, half random) up to maxDelayMs, and are never shorter than the server's Retry-After.
import { ConnectionError, type SvcError } from './errors.js';

const RETRY_STATUS_IDEMPOTENT = new Set([500, 502, 503, 504]);

/** A connection nothing accepted: no request reached a server. */
export const isRefused = (err: SvcError) => err instanceof ConnectionError && /ECONNREFUSED/.test(err.message);

/** `retryRefused` false: a refused connection is not retried (the caller would rather hear at once). */
export function isRetryable(err: SvcError, idempotent: boolean, retryRefused = true): boolean {
  if (err.status === 429) return true;
  if (!retryRefused && isRefused(err)) return false;
  if (!idempotent) return false;
  return err instanceof ConnectionError || RETRY_STATUS_IDEMPOTENT.has(err.status);
}

export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Wait before attempt `attempt + 1`, honouring the server's Retry-After when it gave one. */
export function backoffMs(attempt: number, policy: BackoffPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = step / 2 + (random() * step) / 2;
  if (retryAfterMs === undefined) return Math.round(jittered);
  // At least what the server asked for, spread a little so retrying clients do not arrive together.
  return Math.round(retryAfterMs + random() * Math.min(step, 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
