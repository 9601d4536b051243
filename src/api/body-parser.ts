// Parses a large JSON body on a thread of its own, so that the event loop goes on serving while it
// is decoded and parsed (a 30 MB document holds the main thread about 140 ms otherwise, and every
// other store's searches wait). Invariants: one thread at most (a Piscina pool of one), started by
// the first large body and ended after BODY_THREAD.idleMs without one, so it holds nothing between
// ingests and never keeps the process alive; the bytes are copied to it (the caller keeps its
// buffer); a failure is the `failure` the thread gives, and a thread that cannot run answers
// 'thread' (the caller then parses the body itself).
import { Piscina } from 'piscina';
import type { ParseReply } from './body-types.js';

export const BODY_THREAD = {
  /** bodies of at least this many bytes are parsed on the thread; smaller ones cost less inline than the copy and the hop */
  minBytes: 1 << 20,
  /** the thread ends after this long without a body */
  idleMs: 10_000,
} as const;

export type BodyReply = ParseReply | { failure: 'thread'; message: string };

/** The thread's module: body-thread.ts beside this file under TypeScript, body-thread.js in dist. */
function threadUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./body-thread${ext}`, import.meta.url);
}

let pool: Piscina | undefined;

/** Parses `bytes` on the body thread. */
export async function parseOnThread(bytes: Uint8Array): Promise<BodyReply> {
  pool ??= new Piscina({ filename: threadUrl().href, minThreads: 0, maxThreads: 1, idleTimeout: BODY_THREAD.idleMs });
  try {
    return (await pool.run(bytes)) as ParseReply;
  } catch (err) {
    return { failure: 'thread', message: (err as Error).message };
  }
}
