// The thread that parses large request bodies (the module of body-parser.ts's Piscina pool, never
// imported). Invariants: it answers every body with the value JSON.parse gives for its bytes or
// with why there is none (not UTF-8; not JSON; nested over MAX_JSON_DEPTH levels, which the main
// thread refuses anyway and a structured clone could not send back), and keeps nothing between bodies.
import { nestsTooDeep } from './body.js';
import type { ParseReply } from './body-types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export default function parseBody(bytes: Uint8Array): ParseReply {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { failure: 'utf8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return err instanceof RangeError ? { failure: 'deep' } : { failure: 'json', message: (err as Error).message };
  }
  return nestsTooDeep(value) ? { failure: 'deep' } : { value };
}
