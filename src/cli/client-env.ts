// Shared by the client commands (stores, docs, ingest, search): the library client configured from
// SVC_BASE_URL and SVC_API_KEY, the wrapper that turns the library's typed errors into CliErrors
// (message, request id, fix), option parsers, and small text formatters. Talks to the server only
// through the client library, never through src/api.
import { InvalidArgumentError } from 'commander';
import { type Filter, type Metadata, type MetadataValue, Svc, SvcError } from '../client/index.js';
import { CliError } from './cli-error.js';
import { cliMessage, UNAUTHORIZED_FIX } from './cli-words.js';

/** The client of the CLI: a refused connection (nothing listens at SVC_BASE_URL) fails at once instead of being retried. */
export function client(): Svc {
  return new Svc({ retry: { retryRefused: false } });
}

/** Wraps a command action so that a library error exits with its message and fix, in CLI words (cli-words.ts). */
export function withClient<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (err) {
      if (err instanceof SvcError) {
        const id = err.requestId ? ` (request id ${err.requestId})` : '';
        throw new CliError(`${cliMessage(err.message)}${id}`, (err.type === 'unauthorized' ? UNAUTHORIZED_FIX : err.fix) || undefined);
      }
      throw err;
    }
  };
}

export function intOption(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`use an integer from ${min} to ${max}`);
    return n;
  };
}

export function secondsOption(value: string): number {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError('use a number of seconds above 0');
  return n;
}

/** `k=v`: v is read as JSON when it is a number, true or false (write "…" to keep it a string). */
export function parseFilter(pair: string, previous: Metadata = {}): Metadata {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`'${pair}' is not key=value`);
  const key = pair.slice(0, eq);
  const raw = pair.slice(eq + 1);
  let value: MetadataValue = raw;
  if (/^(true|false|-?\d+(\.\d+)?([eE][+-]?\d+)?|".*")$/.test(raw)) value = JSON.parse(raw) as MetadataValue;
  return { ...previous, [key]: value };
}

/** `--where '<json>'`: a filter (the server checks its shape and reports what is wrong with a fix). */
export function parseWhere(json: string): Filter {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new InvalidArgumentError(`not JSON: write a filter such as '{"year": {"$gte": 2000}}' in single quotes`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError('a filter is a JSON object, such as \'{"team": {"$in": ["a", "b"]}}\'');
  return value as Filter;
}

/** The filter of `--filter k=v` pairs and `--where`, when either is given: both must hold. */
export function combineFilters(pairs: Metadata | undefined, where: Filter | undefined): Filter | undefined {
  if (pairs && where) return { $and: [pairs, where] };
  return where ?? pairs;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Left-aligned columns separated by two spaces; the header row first. */
export function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows)
    process.stdout.write(
      `${r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function formatMetadata(m: Metadata): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}
