// `rejectsApi(t, promise, { status, type, ... })`: tap's `t.rejects` for the errors of the API, with a
// pattern typed for them. tap's types accept only Error-like patterns (a `message`, `name`, `code`,
// `cause` or `errors` field), so `t.rejects(api.get(...), { status: 404, type: 'store_not_found' })`
// does not type-check although it works. This asserts exactly what that call does: one test point,
// failing if the promise resolves, else `t.match(error, wanted)` (every field given must match; a
// RegExp matches a string). The error is the test client's HttpError (helpers/server.ts) or the
// server's own ApiError (src/errors.ts), whose `type` is one of the error table's.
import type { Test } from 'tap';
import type { ErrorType } from '../../src/errors.js';

/** A pattern for an HTTP error; fields left out are not checked. */
export interface ApiErrorMatch {
  status?: number;
  type?: ErrorType;
  /** The response body (HttpError), `{error: {type, message, fix}}`. */
  body?: { error: { type?: ErrorType; message?: string | RegExp; fix?: string | RegExp } };
  /** Response headers: the ApiError's extra headers (e.g. Retry-After). */
  headers?: Record<string, string | RegExp>;
  message?: string | RegExp;
  fix?: string | RegExp;
}

/** Passes when `promise` rejects with an error matching `wanted`; resolves to whether it passed. */
export async function rejectsApi(t: Test, promise: Promise<unknown>, wanted: ApiErrorMatch, msg = 'expected to reject'): Promise<boolean> {
  try {
    await promise;
  } catch (error) {
    return t.match(error, wanted, msg);
  }
  return t.fail(msg);
}
