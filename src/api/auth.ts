// Resolves the project of a request. With auth: from the bearer API key (the only way to reach a
// project), 401 `unauthorized` otherwise. With --no-auth: from the X-Svc-Project header, else the
// server's default project (SVC_PROJECT). GET /metrics's key (SVC_METRICS_KEY) is read from the same
// bearer header form.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { NAME_RE } from '../config.js';
import { ApiError } from '../errors.js';

/** Checks an API key: the project it gives access to, or null (the data dir's KeyRing, or a cluster's keys). */
export interface KeyVerifier {
  verify(token: string): string | null;
  /** Asked when `verify` gives null: the same check after reading a shared authority (a cluster's keys bucket). */
  lookup?(token: string): Promise<string | null>;
}

export interface AuthOptions {
  noAuth: boolean;
  defaultProject: string;
  keys: KeyVerifier;
}

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="svc"' } });
}

export async function resolveProject(headers: IncomingHttpHeaders, opts: AuthOptions): Promise<string> {
  if (opts.noAuth) {
    const p = headers['x-svc-project'];
    if (p === undefined) return opts.defaultProject;
    if (typeof p !== 'string' || !NAME_RE.test(p)) {
      throw new ApiError('invalid_request', 'header X-Svc-Project is not a project name', {
        fix: 'Use 1 to 64 characters of [a-z0-9-_], or omit the header for the default project.',
      });
    }
    return p;
  }
  const h = headers.authorization;
  if (!h) throw unauthorized('no API key was sent');
  const token = bearerToken(h);
  if (!token) throw unauthorized("the Authorization header is not of the form 'Bearer <API_KEY>'");
  const project = opts.keys.verify(token) ?? (await opts.keys.lookup?.(token)) ?? null;
  if (!project) throw unauthorized('the API key is not valid: unknown, mistyped or revoked');
  return project;
}

/** The token of an `Authorization: Bearer <token>` header; undefined for any other form. */
function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/** Throws 401 unless the request's bearer token is `key` (SVC_METRICS_KEY), compared in constant time. */
export function assertMetricsKey(headers: IncomingHttpHeaders, key: string): void {
  const given = Buffer.from(bearerToken(headers.authorization) ?? '');
  const want = Buffer.from(key);
  if (given.length === want.length && timingSafeEqual(given, want)) return;
  throw new ApiError('unauthorized', 'GET /metrics needs the metrics key', {
    fix: "Send 'Authorization: Bearer <SVC_METRICS_KEY>' (the server was started with SVC_METRICS_KEY set).",
    headers: { 'WWW-Authenticate': 'Bearer realm="svc-metrics"' },
  });
}
