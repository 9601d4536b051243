// Answers to questions that choose between two things by when something happened ("Who is older,
// A or B?", "Which film came out first, A or B?", "Which film has the director who died first, A
// or B?"), which a reader of single spans cannot compare. The question names its two options after
// its last comma; each is the listed document whose title it is (compared.ts); the date compared is
// that document's (a birth, a death, or the event its words name: released, founded...), or, when
// the question asks of a person the option relates to ("the director"), that of the document the
// option's passage names after the relation's word. Invariants: the answer is the chosen option's
// title as its passage writes it (an exact substring of that passage); it cites the documents whose
// dates were compared, the chosen option's first; nothing is answered (undefined) when an option or
// a date is not found or the two dates do not differ, and the reader answers instead.
import { documentNamed, relatedDocument, relationOf } from './compared.js';
import { compareDates, eventDate, lifeDates, type TextDate } from './dates.js';
import type { ListedPassage } from './reader-chain.js';

/** What a choice question compares: which date, and whether the earlier or the later wins. */
interface Choice {
  options: [string, string];
  event: 'born' | 'died' | 'other';
  earliest: boolean;
  relation?: RegExp;
}

const EVENT_CUES =
  /\b(released|release|founded|formed|established|published|premiered|opened|built|created|launched|debuted|aired|began|started|incorporated|came out)\b/gi;

/** The choice a question asks, or undefined when it asks none this module compares. */
export function choiceOf(question: string): Choice | undefined {
  const m = /^(.*),\s*([^,]+?)\s+or\s+([^,?]+?)\s*\?*$/i.exec(question.trim().replace(/\s+/g, ' '));
  if (!m) return undefined;
  const head = m[1].toLowerCase();
  const later = /\b(younger|youngest|later|latest|last|more recent(ly)?|most recent(ly)?|newer|newest|after)\b/.test(head);
  const earlier = /\b(older|oldest|elder|earlier|earliest|first|before)\b/.test(head);
  if (later === earlier) return undefined;
  const event = /\b(died|die|death)\b/.test(head) ? 'died' : /\b(born|older|oldest|elder|younger|youngest)\b/.test(head) ? 'born' : 'other';
  return { options: [m[2], m[3]], event, earliest: earlier, relation: relationOf(head) };
}

/** The date the choice compares in one option's evidence text. */
function dateOf(c: Choice, text: string): TextDate | undefined {
  return c.event === 'other' ? eventDate(text, EVENT_CUES) : lifeDates(text)[c.event];
}

/** The answer to a choice question from the listed passages, or undefined when it cannot be made. */
export function answerChoice<P extends ListedPassage>(
  question: string,
  passages: readonly P[],
): { text: string; citations: string[] } | undefined {
  const c = choiceOf(question);
  if (!c) return undefined;
  const [a, b] = c.options.map((o) => {
    const found = documentNamed(o, passages);
    const evidence = found && (c.relation ? relatedDocument(found.p, c.relation, passages) : found.p);
    const date = evidence && dateOf(c, evidence.text);
    return found && evidence && date ? { ...found, evidence, date } : undefined;
  });
  if (!a || !b || a.p.doc_id === b.p.doc_id) return undefined;
  const order = compareDates(a.date, b.date);
  if (order === 0) return undefined;
  const [win, lose] = order < 0 === c.earliest ? [a, b] : [b, a];
  const at = win.p.text.indexOf(win.title);
  if (at < 0) return undefined;
  const citations = [...new Set([win.p.doc_id, win.evidence.doc_id, lose.p.doc_id, lose.evidence.doc_id])];
  return { text: win.p.text.slice(at, at + win.title.length), citations };
}
