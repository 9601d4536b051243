// Which of a search's passages the native reader reads. A question that composes relations ("when was
// the director of film X born?") is answered in the document the search's chain went to from the
// passage the question names, not in that passage, which holds the question's words and so draws a
// reader of single passages to the bridge's name or to another date. So when the best passage found
// from the question alone names, by its title, documents the search reached at a later hop, the
// reader reads those documents' opening passages only (a document the question names itself is no
// bridge: the question was not composed through it); otherwise it reads the passages as listed.
// A title is what the engine takes for one (engine/text/title.ts: `metadata.title`, a short first
// line, or the subject an untitled text's first sentence names).
// Invariants: the passages read are a subset of those given, in their order; a result of one hop,
// passages of documents without a title or a chain the first passage does not name leave the list
// as it was; titles match whole words, case and punctuation aside; an answer read from a named
// document cites it and the passage that named it; when the named documents hold no candidate span,
// the answerer reads the passages as listed.
import { documentTitle } from '../engine/index.js';
import { normalizeAnswer } from './text-units.js';

/** A listed passage as the reader sees it: where it starts in its document, the hop that found it and its document's metadata, when known. */
export interface ListedPassage {
  doc_id: string;
  text: string;
  hop?: number;
  start?: number;
  metadata?: Record<string, unknown>;
}

/** The passages to read, and the passage whose titles led to them when the chain was followed. */
export function passagesToRead<P extends ListedPassage>(question: string, passages: readonly P[]): { read: P[]; from?: P } {
  const first = passages.find((p) => p.hop === 1);
  if (!first) return { read: [...passages] };
  const named = ` ${normalizeAnswer(first.text)} `;
  const asked = ` ${normalizeAnswer(question)} `;
  const read = passages.filter((p) => {
    if ((p.hop ?? 1) < 2 || p.start !== 0 || p.doc_id === first.doc_id) return false;
    const title = titleOf(p);
    return title !== undefined && named.includes(` ${title} `) && !asked.includes(` ${title} `);
  });
  return read.length ? { read, from: first } : { read: [...passages] };
}

/**
 * The documents an answer read from `passage` cites: that passage's, then the one that named it when
 * the chain was followed; the naming one first when the answer is the named document's title (the
 * bridge itself: the passage that named it states what the question asked of it).
 */
export function chainCitations(answer: string, passage: ListedPassage, from?: ListedPassage): string[] {
  if (!from) return [passage.doc_id];
  return titleOf(passage) === normalizeAnswer(answer) ? [from.doc_id, passage.doc_id] : [passage.doc_id, from.doc_id];
}

/** The title of a document's opening passage as the engine takes it (engine/text/title.ts), normalised as answers are. */
function titleOf(p: ListedPassage): string | undefined {
  const title = normalizeAnswer(documentTitle(p.text, p.metadata));
  return title.length ? title : undefined;
}
