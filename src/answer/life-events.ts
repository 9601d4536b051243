// Answers to questions that ask when or where a person was born or died, of a person the question
// names or reaches through a relation ("When was the director of film X born?", "Where did X's
// father die?"): the reader of single spans takes the film's year or another date of the passage it
// reads first. The person is the document the named document names after the relation's word
// (compared.ts: "directed by", "son of", "married"), or, with no relation asked, the named document
// itself. Dates come from the bracket after the person's name ("(April 23, 1894 – June 19, 1962)",
// "(born 4 May 1911)") or after "born" / "died" (dates.ts lifeDates, as the comparisons read them);
// places from "born in X" / "died in X". Invariants: the answer is an exact substring of the person's passage (the date, its year alone
// when the question asks the year, or the place's capitalised words); it cites that document
// and the one that led to it; a named document that states no dates in such a bracket is taken for
// no person (undefined), and nothing is answered when the question names no listed document, the
// relation leads to none, or the person's passage does not state what is asked: the reader answers.
import { type Answered, reachedDocuments, relationOf, titled } from './compared.js';
import { lifeBracket, lifeDates } from './dates.js';
import type { ListedPassage } from './reader-chain.js';
import { cutName } from './text-units.js';

type Asked = { event: 'born' | 'died'; what: 'date' | 'year' | 'place' };

/** What a question asks of a person's life, or undefined when it asks none of these. */
export function lifeEventOf(question: string): Asked | undefined {
  const q = question.toLowerCase();
  const born = /\b(born|birth|birthday)\b/.test(q);
  const died = /\b(die|died|death)\b/.test(q);
  if (born === died || /\b(why|how|cause)\b/.test(q)) return undefined;
  const event = born ? 'born' : 'died';
  if (/^(where\b|what is the place of|what was the place of|in which (city|town|place))/.test(q) || /\bplace of (birth|death)\b/.test(q))
    return { event, what: 'place' };
  if (/^(what|in what|which|in which) year\b/.test(q)) return { event, what: 'year' };
  if (/^(when\b|what is the date of|what was the date of)/.test(q) || /\bdate of (birth|death)\b|\bbirthday\b/.test(q))
    return { event, what: 'date' };
  return undefined;
}

const PLACE = /^[^.;()]{0,40}?\b(in|at)\s+((?:\p{Lu}[\p{L}'’.-]*)(?:\s+(?:\p{Lu}[\p{L}'’.-]*|of|de|upon|on|la|le|del|di))*)/u;

const MONTH_WORD = /^(January|February|March|April|May|June|July|August|September|October|November|December)\b/;

/** The place of a birth or death a person's passage states: the capitalised words after "born in" / "died in". */
function lifePlace(text: string, event: 'born' | 'died'): { start: number; end: number } | undefined {
  for (const m of text.matchAll(event === 'born' ? /\bborn\b/gi : /\bdied\b/gi)) {
    const rest = text.slice(m.index + m[0].length);
    const p = PLACE.exec(rest);
    if (!p) continue;
    const name = cutName(p[2], /\s+(of|de|upon|on|la|le|del|di)$/);
    if (MONTH_WORD.test(name)) continue;
    const start = m.index + m[0].length + p.index + p[0].length - p[2].length;
    return { start, end: start + name.length };
  }
  return undefined;
}

/** The answer to a question of a person's birth or death from the listed passages, or undefined. */
export function answerLifeEvent<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const asked = lifeEventOf(question);
  if (!asked) return undefined;
  const relation = relationOf(question.toLowerCase());
  for (const { doc: person, from: p } of reachedDocuments(question, passages, relation)) {
    const from = titled(person).body;
    if (!relation && !lifeBracket(person.text, from)) continue;
    const span = asked.what === 'place' ? lifePlace(person.text, asked.event) : lifeDates(person.text, { from })[asked.event];
    if (!span) continue;
    const text = person.text.slice(span.start, span.end);
    const year = asked.what === 'year' && 'year' in span ? text.lastIndexOf(String(span.year)) : -1;
    return { text: year >= 0 ? text.slice(year, year + 4) : text, citations: [...new Set([person.doc_id, p.doc_id])] };
  }
  return undefined;
}
