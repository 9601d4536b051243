// One line of JSONL as a document, as `svc ingest` and the web console read it: a JSON object with
// `text` (or `content`, for the server to extract), an optional `id` and `metadata`. A line without
// an id gets `sha256-` and the first 32 hex digits of its text's SHA-256, so a re-run names it the
// same. A line that is not such an object is refused with an InvalidRequestError naming `where`
// (a file and line) and carrying a fix; the server checks the rest of the document.
import type { DocumentInput } from '../api-types.js';
import { InvalidRequestError } from './errors.js';
import { sha256Hex } from './web.js';

/** The fix of every refused line. */
export const JSONL_SHAPE = 'Each line must be one JSON object: {"id": "...", "text": "...", "metadata": {...}} (id and metadata optional).';

/** `text` parsed as one JSON object, or an InvalidRequestError naming `what` with `fix`. */
export function parseJsonObject(text: string, what: string, fix: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidRequestError({ message: `${what}: not valid JSON (${(err as Error).message})`, fix });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidRequestError({ message: `${what}: not a JSON object`, fix });
  return value as Record<string, unknown>;
}

/** The document of one non-blank JSONL line. */
export async function jsonlDocument(line: string, where: string): Promise<DocumentInput> {
  const d = parseJsonObject(line, where, JSONL_SHAPE) as Partial<DocumentInput> & Record<string, unknown>;
  if (typeof d.text !== 'string' && (typeof d.content !== 'object' || d.content === null))
    throw new InvalidRequestError({ message: `${where}: 'text' is missing or not a string`, fix: JSONL_SHAPE });
  if (d.id === undefined && typeof d.text === 'string')
    return { ...d, id: `sha256-${(await sha256Hex(d.text)).slice(0, 32)}` } as DocumentInput;
  if (typeof d.id !== 'string' || d.id === '')
    throw new InvalidRequestError({ message: `${where}: 'id' is not a non-empty string`, fix: JSONL_SHAPE });
  return d as DocumentInput;
}
