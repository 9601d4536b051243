// Reads a JSON request body with hard limits, before anything else touches it. Invariants: at most
// `limit` bytes after decompression are accepted (gzip/deflate/br are inflated as a stream and cut
// off past the cap, so a compression bomb costs at most `cap` bytes of memory); the bytes must be
// valid UTF-8 and one JSON value, nested at most MAX_JSON_DEPTH levels (schema validation recurses
// per level); anything else is a 4xx with a fix, never a 500.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ApiError } from '../errors.js';
import { BODY_THREAD, parseOnThread } from './body-parser.js';

export class BodyTooLargeError extends Error {
  /** Bytes read before giving up (at least `limit + 1`), and the parsed body when it was small enough to parse. */
  constructor(
    readonly bytes: number,
    readonly parsed: unknown,
    readonly complete: boolean,
  ) {
    super('request body too large');
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decompressor(req: IncomingMessage): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  switch (encoding) {
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new ApiError('unsupported_media_type', `Content-Encoding '${encoding}' is not supported`, {
        fix: 'Send the body uncompressed or with Content-Encoding gzip, deflate or br.',
      });
  }
}

/**
 * Collects the (decompressed) body up to `cap` bytes. Past the cap it stops listening without
 * destroying the request, so the server can still answer (Node discards the rest of the upload).
 */
function collect(req: IncomingMessage, cap: number): Promise<{ buf: Buffer; bytes: number; truncated: boolean }> {
  const z = decompressor(req);
  const source: Readable = z ? req.pipe(z) : req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const cleanup = () => {
      source.off('data', onData).off('end', onEnd).off('error', onError);
      req.off('error', onError).off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= cap) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      if (z) {
        req.unpipe(z);
        z.destroy();
      }
      resolve({ buf: Buffer.alloc(0), bytes, truncated: true });
    };
    const onEnd = () => {
      cleanup();
      resolve({ buf: Buffer.concat(chunks, bytes), bytes, truncated: false });
    };
    const onError = (err: Error) => {
      cleanup();
      reject(
        new ApiError('invalid_request', `the request body could not be read: ${err.message}`, {
          fix: 'Send a complete body; if it is compressed, check that Content-Encoding matches the data.',
        }),
      );
    };
    const onAborted = () => onError(new Error('the client closed the connection'));
    source.on('data', onData).on('end', onEnd).on('error', onError);
    req.on('error', onError).on('aborted', onAborted);
  });
}

/**
 * Reads and parses the body. Past `limit` bytes, keeps reading up to `diagnosticCap` so the caller
 * can name what was too large, then throws BodyTooLargeError (with the parsed body if complete).
 */
export async function readJsonBody(req: IncomingMessage, limit: number, diagnosticCap = limit): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new ApiError('unsupported_media_type', type ? `Content-Type '${type}' is not accepted` : 'the request has no Content-Type', {
      fix: "Send the body as JSON with 'Content-Type: application/json'.",
    });
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > diagnosticCap) {
    throw new BodyTooLargeError(declared, undefined, false);
  }
  const { buf, bytes, truncated } = await collect(req, diagnosticCap);
  if (truncated) throw new BodyTooLargeError(bytes, undefined, false);
  const large = buf.byteLength >= BODY_THREAD.minBytes;
  const parsed = large ? await parseLarge(buf) : parseJson(buf);
  if (bytes > limit) throw new BodyTooLargeError(bytes, parsed, true);
  // the body thread checked the depth of a large body already
  if (!large) checkJsonDepth(parsed, 'the request body');
  return parsed;
}

/** Arrays and objects inside one another, at most: far above what any schema allows (a filter's 8 levels take 3 each). */
export const MAX_JSON_DEPTH = 64;

const tooDeep = (what: string) =>
  new ApiError('invalid_request', `${what} nests arrays and objects over ${MAX_JSON_DEPTH} levels deep`, {
    fix: `Nest JSON at most ${MAX_JSON_DEPTH} levels (a filter at most 8 levels of $and, $or and $not); see /v1/openapi.json.`,
  });

/** Whether `value` nests arrays and objects deeper than MAX_JSON_DEPTH (walked without recursion). */
export function nestsTooDeep(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Throws 400 when `value` nests arrays and objects deeper than MAX_JSON_DEPTH. */
export function checkJsonDepth(value: unknown, what: string): void {
  if (nestsTooDeep(value)) throw tooDeep(what);
}

const notUtf8 = () => new ApiError('invalid_request', 'the request body is not valid UTF-8', { fix: 'Encode the JSON body as UTF-8.' });
const notJson = (reason: string) =>
  new ApiError('invalid_request', `the request body ${reason}`, {
    fix: 'Send one well-formed JSON value as described in /v1/openapi.json.',
  });

function parseJson(buf: Buffer): unknown {
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    throw notUtf8();
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw notJson(err instanceof RangeError ? 'is nested too deeply' : `is not valid JSON (${(err as Error).message})`);
  }
}

/** A large body, parsed and its depth checked on the body thread (body-parser.ts), with the outcome parseJson and checkJsonDepth give; here if that thread failed. */
async function parseLarge(buf: Buffer): Promise<unknown> {
  const reply = await parseOnThread(buf);
  if (reply.failure === undefined) return reply.value;
  if (reply.failure === 'utf8') throw notUtf8();
  if (reply.failure === 'deep') throw tooDeep('the request body');
  if (reply.failure === 'json') throw notJson(`is not valid JSON (${reply.message})`);
  const value = parseJson(buf);
  checkJsonDepth(value, 'the request body');
  return value;
}
