// Cursor pagination as an async iterator: one page is fetched at a time, only when the consumer has
// taken every item of the previous one, and iteration ends at the first null next_cursor. Breaking
// out of a for-await loop stops fetching.
import type { CallOptions } from './config.js';

export interface ListOptions extends CallOptions {
  /** Page size (1 to 100; the server's default is 20). */
  limit?: number;
  /** The next_cursor of the previous page. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
}
