// The documents the answers that compare two things or ask of a person read (choice.ts,
// same-country.ts, both.ts, life-events.ts, person-facts.ts): the listed document a name of the
// question is one of the names of, and the document such a document names after a relation's word
// ("directed by X") when the question asks of a thing's director, author... A document's names are
// its title (engine/text/title.ts), the title without its bracketed part, the subject its opening
// sentence names before its verb or bracket when that is another (an untitled text's "V trestném
// území is a 1950 film", a full name), and a full name of three or four words followed by a bracket
// by its first and last word ("John Arthur Loone( 25 January 1931": "John Loone"). Invariants: only
// opening passages (start 0) stand for their documents; names match whole words, case, punctuation
// and a possessive "'s" aside (text-units.ts normalizeAnswer); a Compared's `title` is the name as
// its passage writes it; a question asks a relation only by a role word that follows "the",
// "whose", "its", "their", "both" or a possessive, or comes before "of" ("the director who", "X's
// father", "director of film X"; not "which singer"); a relation's document is one the passage
// names (by one of its names) within 40 characters after the relation's word.
import { documentTitle } from '../engine/index.js';
import type { ListedPassage } from './reader-chain.js';
import { normalizeAnswer, STOP } from './text-units.js';

/** What a rule answers: an answer's text and the documents it cites (the answerer adds its source). */
export type Answered = { text: string; citations: string[] };

/** A passage's title as the engine takes it (engine/text/title.ts), and where its text starts past a title line. */
export function titled(p: ListedPassage): { title: string; body: number } {
  const title = documentTitle(p.text, p.metadata);
  return { title, body: p.text.startsWith(`${title}\n`) ? title.length + 1 : 0 };
}

/** A listed document a comparison reads, the name it goes by as its text writes it, and as the question names it. */
export interface Compared<P extends ListedPassage> {
  p: P;
  /** the title (without its bracketed part when the question names it so), or the subject its opening sentence names */
  title: string;
  /** the form the question names: `title`, or its first and last word ("John Loone" of "John Arthur Loone") */
  named: string;
}

/** Relations a question follows from a thing to a person: the role words that ask it, and how a text states it. */
const RELATIONS: Array<[RegExp, RegExp]> = [
  [/\bdirectors?\b/g, /\bdirect(ed|or)\b/i],
  [/\bcomposers?\b/g, /\b(compos(ed|er)|music|written|by)\b/i],
  [/\bproducers?\b/g, /\bproduc(ed|er)\b/i],
  [/\b(authors?|writers?)\b/g, /\b(writ(ten|er)|author|by)\b/i],
  [/\b(performers?|singers?)\b/g, /\b(perform(ed|er)|sung|recorded|by)\b/i],
  [/\bcreators?\b/g, /\bcreat(ed|or)\b/i],
  [/\bfounders?\b/g, /\bfound(ed|er)\b/i],
  [/\b(father|mother|parent)\b/g, /\b((son|daughter|child) of|father|mother)\b/i],
  [/\b(husband|wife|spouse)\b/g, /\b(married|husband|wife|spouse)\b/i],
];

/** Where a role word asks a relation: after "the", "whose"... or a possessive, or before "of". */
const ASKED_BEFORE = /(?:\b(?:the|whose|its|their|both)|['’]s)\s+$/;
const ASKED_AFTER = /^\s+of\b/;

/** How a text states the relation the (lower-cased) question words ask of, if they ask one. */
export function relationOf(asked: string): RegExp | undefined {
  const asks = (words: RegExp) =>
    [...asked.matchAll(words)].some(
      (m) => ASKED_BEFORE.test(asked.slice(0, m.index)) || ASKED_AFTER.test(asked.slice(m.index + m[0].length)),
    );
  return RELATIONS.find(([words]) => asks(words))?.[1];
}

const short = (title: string) => title.replace(/\s*\(.*$/, '');

/** A name as titles and questions are matched: normalised as answers are, a possessive "'s" dropped on both sides ("X's father" holds X, "Lady Audley's Secret" itself). */
const nameKey = (s: string) => normalizeAnswer(s.replace(/['’]s\b/gi, ''));

/** Where a passage's opening sentence's subject ends: a bracket, comma, colon or dash, or its verb. */
const OPENING_END = /\s*[([,;:–—]|\s+(?:is|was|are|were|has been|had been|refers to)\s/u;

/**
 * The names a document goes by, each with the form its passage writes: its title, without its
 * bracketed part, the subject its opening sentence names when that is another (a text without a
 * title line, a full name), and a full name's first and last word ("John Arthur Loone": "John Loone").
 */
function namesOf(p: ListedPassage): Array<{ named: string; title: string }> {
  const known = NAMES.get(p);
  if (known) return known;
  const names = readNames(p);
  NAMES.set(p, names);
  return names;
}
/** Each passage object's names, read once (the rules ask them of the same ten passages many times). */
const NAMES = new WeakMap<ListedPassage, Array<{ named: string; title: string }>>();

function readNames(p: ListedPassage): Array<{ named: string; title: string }> {
  const { title, body } = titled(p);
  const opening = p.text.slice(body, body + 160);
  const out = [{ named: title, title }];
  if (short(title) !== title) out.push({ named: short(title), title: short(title) });
  const end = OPENING_END.exec(opening);
  const subject = end ? opening.slice(0, end.index).trim() : '';
  const other = subject !== '' && !subject.includes('\n') && subject.split(/\s+/).length <= 8 && nameKey(subject) !== nameKey(title);
  if (other) out.push({ named: subject, title: subject });
  // a person's full name: three or four capitalised words the opening sentence follows with a bracket (of dates), not
  // opening with "The" ("John Arthur Loone( 25 January 1931 ..."; "The Man Without a Country" is no "The Country")
  const full = other ? subject : title;
  const w = full.split(/\s+/);
  const bracketed = opening.startsWith(full) && /^\s*\(/.test(opening.slice(full.length));
  if (bracketed && w.length >= 3 && w.length <= 4 && w.every((x) => /^\p{Lu}/u.test(x)) && !STOP.has(w[0].toLowerCase()))
    out.push({ named: `${w[0]} ${w[w.length - 1]}`, title: full });
  return out.filter((n) => nameKey(n.named) !== '');
}

/**
 * The listed document one of whose names `name` is, or ends with ("the duo Big & Rich"), or is
 * without its bracketed part ("Crime After Crime (Film)" of a text that names no bracket); a whole
 * name first.
 */
export function documentNamed<P extends ListedPassage>(name: string, passages: readonly P[]): Compared<P> | undefined {
  const o = ` ${nameKey(name)} `;
  const bare = ` ${nameKey(short(name))} `;
  let found: Compared<P> | undefined;
  for (const p of passages) {
    if (p.start !== 0) continue;
    for (const n of namesOf(p)) {
      const t = ` ${nameKey(n.named)} `;
      if (o === t) return { p, ...n };
      if (!found && (o.endsWith(t) || (bare !== o && bare === t))) found = { p, ...n };
    }
  }
  return found;
}

/**
 * The listed documents the question names by one of their names, at most one per place in the
 * question (the longest name there), in question order; a possessive names its owner ("X's father": X).
 */
export function documentsNamedIn<P extends ListedPassage>(question: string, passages: readonly P[]): Compared<P>[] {
  const q = ` ${nameKey(question)} `;
  const spans: Array<Compared<P> & { at: number; end: number }> = [];
  for (const p of passages) {
    if (p.start !== 0) continue;
    for (const n of namesOf(p)) {
      const t = nameKey(n.named);
      if (t.length < 3 || !/^\p{Lu}|^\p{N}/u.test(n.named)) continue;
      const at = q.indexOf(` ${t} `);
      if (at >= 0) {
        spans.push({ p, ...n, at, end: at + t.length + 1 });
        break;
      }
    }
  }
  spans.sort((a, b) => b.end - b.at - (a.end - a.at) || a.at - b.at);
  const kept: typeof spans = [];
  for (const s of spans) if (!kept.some((k) => s.at < k.end && k.at < s.end) && !kept.some((k) => k.p.doc_id === s.p.doc_id)) kept.push(s);
  return kept.sort((a, b) => a.at - b.at).map(({ p, title, named }) => ({ p, title, named }));
}

/** The listed document `p` names first (by one of its names, namesOf) within 40 characters after the relation's words, other than p's own. */
export function relatedDocument<P extends ListedPassage>(p: P, relation: RegExp, passages: readonly P[]): P | undefined {
  const cues = [...p.text.matchAll(new RegExp(relation.source, 'gi'))].map((m) => m.index + m[0].length);
  let best: { q: P; at: number } | undefined;
  for (const q of passages) {
    if (q.start !== 0 || q.doc_id === p.doc_id) continue;
    for (const { named } of namesOf(q)) {
      const name = short(named);
      if (name.length < 3) continue;
      for (const cue of cues) {
        const at = p.text.indexOf(name, cue);
        if (at >= 0 && at - cue <= 40 && (!best || at < best.at)) best = { q, at };
      }
    }
  }
  return best?.q;
}

/**
 * The documents a question reaches: each listed document it names (in question order) or, when
 * `relation` is given, the document that one names after the relation's word; each with the named
 * document that led there (itself when no relation is followed).
 */
export function reachedDocuments<P extends ListedPassage>(
  question: string,
  passages: readonly P[],
  relation?: RegExp,
): Array<{ doc: P; from: P }> {
  const out: Array<{ doc: P; from: P }> = [];
  for (const { p } of documentsNamedIn(question, passages)) {
    const doc = relation ? relatedDocument(p, relation, passages) : p;
    if (doc) out.push({ doc, from: p });
  }
  return out;
}
