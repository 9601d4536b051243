// Answers to questions that ask whether two things share the person behind them ("Do the films A
// and B have the same director?", "Were A and B written by the same author?"): yes or no, which no
// span of a passage is. The two things are the first two listed documents the question names
// (compared.ts); each one's person is the name its passage gives first after the role's words
// ("directed by", "the music of"... : person-facts.ts nameAfter). Invariants: the answer is "yes"
// when both names are the same (normalised as answers are) and "no" otherwise; it cites both
// documents; nothing is answered (undefined) when the question asks no such role, fewer than two
// documents are named, or a passage names no one after the role's words, and the reader answers
// instead.
import { type Answered, documentsNamedIn, titled } from './compared.js';
import { nameAfter } from './person-facts.js';
import type { ListedPassage } from './reader-chain.js';
import { normalizeAnswer } from './text-units.js';

/** The roles a sameness asks, and the words a passage states each with (specific ones: no bare "by"). */
const ROLES: Array<[RegExp, RegExp]> = [
  [/\bdirect(or|ors|ed)\b/, /\b(directed|director)(?: by)?\b/gi],
  [/\bproduc(er|ers|ed)\b/, /\b(produced|producer)(?: by)?\b/gi],
  [/\b(author|authors|writer|writers|written)\b/, /\b(written|author|writer)(?: by)?\b/gi],
  [/\b(composer|composers|composed)\b/, /\b(composed|composer|music)(?: by| of)?\b/gi],
  [/\b(creator|creators|created)\b/, /\b(created|creator)(?: by)?\b/gi],
  [/\b(founder|founders|founded)\b/, /\b(founded|founder)(?: by)?\b/gi],
];
const ASKS = /^(are|is|were|was|do|does|did|have|has)\b/i;
/** "the same director", "directed by the same person": the words around "same" that name the role. */
const SAME = /\b(\w+\s+by\s+)?(?:the\s+)?same\s+(\w+)/i;

/** The name a passage gives first after the role's words, normalised, or undefined when it gives none. */
function personOf(p: ListedPassage, stated: RegExp): string | undefined {
  const at = nameAfter(p.text, stated, titled(p).body);
  return at && normalizeAnswer(p.text.slice(at[0], at[1]));
}

/** The answer to a "same person" question from the listed passages, or undefined when it cannot be made. */
export function answerSamePerson<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const q = question.trim();
  const same = SAME.exec(q);
  if (!ASKS.test(q) || !same) return undefined;
  const asked = `${same[1] ?? ''} ${same[2]}`.toLowerCase();
  const role = ROLES.find(([words]) => words.test(asked));
  if (!role) return undefined;
  const named = documentsNamedIn(q, passages);
  if (named.length < 2) return undefined;
  const [a, b] = named.map(({ p }) => personOf(p, role[1]));
  if (!a || !b) return undefined;
  return { text: a === b ? 'yes' : 'no', citations: [named[0].p.doc_id, named[1].p.doc_id] };
}
