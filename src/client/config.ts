// Client options and their resolution. Explicit options win over the environment (SVC_BASE_URL,
// SVC_API_KEY); the base URL must be an http(s) URL ending in the version prefix /v1, checked once
// here so a wrong value fails at construction with a fix rather than as 404s later.
import { ConfigError } from './errors.js';

export interface RetryEvent {
  /** The attempt that failed (1-based); the next one is attempt + 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: Error;
  method: string;
  path: string;
}

export interface RetryOptions {
  /** Attempts per call, the first included (default 5; 1 disables retries). */
  maxAttempts?: number;
  /** First backoff step; each retry doubles it, with jitter (default 250 ms). */
  baseDelayMs?: number;
  /** Ceiling of one backoff step, unless Retry-After asks for more (default 10 s). */
  maxDelayMs?: number;
  /** Whether a refused connection (nothing listening at the address, as while a server restarts) is retried like a dropped one (default true; the CLI fails at once). */
  retryRefused?: boolean;
  /** Called before each retry (for logging). */
  onRetry?: (event: RetryEvent) => void;
}

export interface SvcOptions {
  /** API root ending in /v1 (default: SVC_BASE_URL, else http://127.0.0.1:8080/v1). */
  baseUrl?: string;
  /** Bearer API key (default: SVC_API_KEY; none is sent when unset, for --no-auth servers). */
  apiKey?: string;
  /** Project sent as X-Svc-Project; only --no-auth servers use it (with auth, the key decides). */
  project?: string;
  /** Overall deadline of one call in milliseconds, retries and backoff included (default 120 s). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
  /** Where SVC_BASE_URL and SVC_API_KEY are read (default: process.env). */
  env?: Record<string, string | undefined>;
}

/** Per-call options accepted by every method. */
export interface CallOptions {
  /** Cancels the call, including its retries and backoff; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's deadline for this call. */
  timeoutMs?: number;
  /** Overrides the client's retry.maxAttempts for this call. */
  maxAttempts?: number;
}

export interface ResolvedConfig {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retry: Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;
  fetch: typeof fetch;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/v1';

function positive(name: string, value: number | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new ConfigError({ message: `${name} is ${value}`, fix: `Give ${name} as a positive ${integer ? 'integer' : 'number'}.` });
  }
  return value;
}

export function resolveConfig(opts: SvcOptions = {}): ResolvedConfig {
  // process.env where there is one (Node); browsers and edge runtimes have none
  const env = opts.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const raw = opts.baseUrl ?? (env.SVC_BASE_URL || DEFAULT_BASE_URL);
  const fix = `Set SVC_BASE_URL (or the baseUrl option) to the API root including the version prefix, e.g. ${DEFAULT_BASE_URL}.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError({ message: `base URL '${raw}' is not a URL`, fix });
  }
  const baseUrl = url.href.replace(/\/+$/, '');
  if (!/^https?:$/.test(url.protocol) || !baseUrl.endsWith('/v1') || url.search || url.hash) {
    throw new ConfigError({ message: `base URL '${raw}' does not end in /v1`, fix });
  }
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const apiKey = opts.apiKey ?? (env.SVC_API_KEY || undefined);
  if (apiKey !== undefined) {
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new ConfigError({
        message: 'the API key contains spaces or characters outside printable ASCII',
        fix: "Set SVC_API_KEY to the key exactly as 'svc keys create' printed it.",
      });
    }
    headers.authorization = `Bearer ${apiKey}`;
  }
  if (opts.project !== undefined) headers['x-svc-project'] = opts.project;
  const retry = opts.retry ?? {};
  const f = opts.fetch ?? globalThis.fetch;
  if (typeof f !== 'function')
    throw new ConfigError({ message: 'no fetch implementation is available', fix: 'Use Node 20 or later, or pass the fetch option.' });
  return {
    baseUrl,
    headers,
    timeoutMs: positive('timeoutMs', opts.timeoutMs, 120_000),
    retry: {
      maxAttempts: positive('retry.maxAttempts', retry.maxAttempts, 5, true),
      baseDelayMs: positive('retry.baseDelayMs', retry.baseDelayMs, 250),
      maxDelayMs: positive('retry.maxDelayMs', retry.maxDelayMs, 10_000),
      retryRefused: retry.retryRefused ?? true,
      onRetry: retry.onRetry,
    },
    // called as a plain function: a browser's fetch throws 'Illegal invocation' when called as a
    // method of another object (this config)
    fetch: (input, init) => f(input, init),
  };
}
