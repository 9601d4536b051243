// Answers to questions that ask when or where a person was born or died, of a person the question
// names or reaches through a relation ("When was the director of film X born?", "Where did X's
// father die?"): the reader of single spans takes the film's year or another date of the passage it
// reads first. The person is the document the named document names after the relation's word
// (compared.ts: "directed by", "son of", "married"), or, with no relation asked, the named document
// itself. Dates come from the bracket after the person's name ("(April 23, 1894 – June 19, 1962)",
// "(born 4 May 1911)") or after "born" / "died"; places from "born in X" / "died in
// X". Invariants: the answer is an exact substring of the person's passage (the date, its year alone
// when the question asks the year, or the place's capitalised words); it cites that document
// and the one that led to it; a named document that states no dates in such a bracket is taken for
// no person (undefined), and nothing is answered when the question names no listed document, the
// relation leads to none, or the person's passage does not state what is asked: the reader answers.
import { type Answered, reachedDocuments, relationOf, titled } from './compared.js';
import { datesOf, type TextDate } from './dates.js';
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

/** The bracket after a person's name at the start of its passage (past a title line): where its dates are, if it has any. */
function lifeBracket(p: ListedPassage): { start: number; end: number } | undefined {
  const { body } = titled(p);
  const open = p.text.indexOf('(', body);
  if (open < 0 || open - body > 300) return undefined;
  const close = p.text.indexOf(')', open);
  if (close < 0) return undefined;
  return datesOf(p.text.slice(open, close)).length ? { start: open, end: close } : undefined;
}

/** The date of a birth or death a person's passage states. */
function lifeDate(text: string, event: 'born' | 'died', bracket: { start: number; end: number } | undefined): TextDate | undefined {
  const inside = bracket ? datesOf(text).filter((d) => d.start > bracket.start && d.end <= bracket.end) : [];
  if (event === 'born' && inside.length) {
    const died = /\b(died|d\.)\s*$/;
    const first = inside[0];
    if (!died.test(text.slice(bracket?.start ?? 0, first.start))) return first;
  }
  if (event === 'died') {
    if (inside.length >= 2 && /[-–—]/.test(text.slice(inside[0].end, inside[1].start))) return inside[1];
    const m = /\b(died|d\.)\s/.exec(bracket ? text.slice(bracket.start, bracket.end) : '');
    if (m && bracket) return inside.find((d) => d.start > bracket.start + m.index);
  }
  const said = (event === 'born' ? /\bborn\b/i : /\bdied\b/i).exec(text);
  return said ? datesOf(text).find((d) => d.start > said.index && d.start - said.index <= 60) : undefined;
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
    const bracket = lifeBracket(person);
    if (!relation && !bracket) continue;
    const span = asked.what === 'place' ? lifePlace(person.text, asked.event) : lifeDate(person.text, asked.event, bracket);
    if (!span) continue;
    const text = person.text.slice(span.start, span.end);
    const year = asked.what === 'year' && 'year' in span ? text.lastIndexOf(String(span.year)) : -1;
    return { text: year >= 0 ? text.slice(year, year + 4) : text, citations: [...new Set([person.doc_id, p.doc_id])] };
  }
  return undefined;
}
