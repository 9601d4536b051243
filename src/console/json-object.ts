// A JSON object typed or pasted by the user (a filter, a line of JSONL): parsed, or refused with an
// InvalidRequestError naming `what` and carrying `fix`, so the page shows it as it shows the API's.
import { InvalidRequestError } from '../client/index.js';

export function parseObject(text: string, what: string, fix: string): Record<string, unknown> {
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
