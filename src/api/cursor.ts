// Opaque pagination cursors: base64url of a small JSON value tagged with the list it belongs to.
// A cursor that does not decode, or belongs to another list, is a 400 with a fix.
import { ApiError } from '../errors.js';

export function encodeCursor(kind: string, position: unknown): string {
  return Buffer.from(JSON.stringify({ k: kind, p: position })).toString('base64url');
}

export function decodeCursor<T>(kind: string, cursor: string | undefined, check: (p: unknown) => p is T): T | undefined {
  if (cursor === undefined) return undefined;
  let value: { k?: unknown; p?: unknown } | undefined;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!value || value.k !== kind || !check(value.p)) {
    throw new ApiError('invalid_request', `cursor '${cursor.slice(0, 40)}' is not a cursor of this list`, {
      fix: 'Pass the next_cursor value of the previous page unchanged, or omit cursor to start from the first page.',
    });
  }
  return value.p;
}
