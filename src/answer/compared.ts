// The documents an answer that compares two things reads (choice.ts, same-country.ts): the listed
// document a name of the question is the title of, and the document such a document names after a
// relation's word ("directed by X") when the question asks of a thing's director, author...
// Invariants: only opening passages (start 0) stand for their documents; titles match whole words,
// case and punctuation aside (text-units.ts normalizeAnswer), a title's bracketed part optional;
// a relation's document is one the passage names within 40 characters after the relation's word.
import { documentTitle } from '../engine/index.js';
import type { ListedPassage } from './reader-chain.js';
import { normalizeAnswer } from './text-units.js';

/** A listed document a comparison reads, and the title as the question names it. */
export interface Compared<P extends ListedPassage> {
  p: P;
  /** the title, without its bracketed part when the question names it so */
  title: string;
}

/** Relations a question follows from a thing to a person: the words that ask it, and how a text states it. */
const RELATIONS: Array<[RegExp, RegExp]> = [
  [/\bdirectors?\b/, /\bdirect(ed|or)\b/i],
  [/\b(composers?|music)\b/, /\b(compos(ed|er)|music)\b/i],
  [/\bproducers?\b/, /\bproduc(ed|er)\b/i],
  [/\b(authors?|writers?)\b/, /\b(writ(ten|er)|author|by)\b/i],
  [/\b(performers?|singers?)\b/, /\b(perform(ed|er)|sung|recorded|by)\b/i],
  [/\bcreators?\b/, /\bcreat(ed|or)\b/i],
  [/\bfounders?\b/, /\bfound(ed|er)\b/i],
];

/** How a text states the relation the (lower-cased) question words ask of, if they ask one. */
export function relationOf(asked: string): RegExp | undefined {
  return RELATIONS.find(([words]) => words.test(asked))?.[1];
}

const short = (title: string) => title.replace(/\s*\(.*$/, '');

/** The listed document whose title `name` is, or ends with ("the duo Big & Rich"); an exact title first. */
export function documentNamed<P extends ListedPassage>(name: string, passages: readonly P[]): Compared<P> | undefined {
  const o = ` ${normalizeAnswer(name)} `;
  let found: Compared<P> | undefined;
  for (const p of passages) {
    if (p.start !== 0) continue;
    const title = documentTitle(p.text, p.metadata);
    const t = normalizeAnswer(title);
    if (!t) continue;
    if (o === ` ${t} `) return { p, title };
    const head = normalizeAnswer(short(title));
    if (!found && o.endsWith(` ${t} `)) found = { p, title };
    else if (!found && head && o.endsWith(` ${head} `)) found = { p, title: short(title) };
  }
  return found;
}

/**
 * The listed documents the question names by title, at most one per place in the question (the
 * longest title there), in question order.
 */
export function documentsNamedIn<P extends ListedPassage>(question: string, passages: readonly P[]): Compared<P>[] {
  const q = ` ${normalizeAnswer(question)} `;
  const spans: Array<Compared<P> & { at: number; end: number }> = [];
  for (const p of passages) {
    if (p.start !== 0) continue;
    const title = documentTitle(p.text, p.metadata);
    for (const form of title === short(title) ? [title] : [title, short(title)]) {
      const t = normalizeAnswer(form);
      if (t.length < 3 || !/^\p{Lu}|^\p{N}/u.test(form)) continue;
      const at = q.indexOf(` ${t} `);
      if (at >= 0) {
        spans.push({ p, title: form, at, end: at + t.length + 1 });
        break;
      }
    }
  }
  spans.sort((a, b) => b.end - b.at - (a.end - a.at) || a.at - b.at);
  const kept: typeof spans = [];
  for (const s of spans) if (!kept.some((k) => s.at < k.end && k.at < s.end) && !kept.some((k) => k.p.doc_id === s.p.doc_id)) kept.push(s);
  return kept.sort((a, b) => a.at - b.at).map(({ p, title }) => ({ p, title }));
}

/** The listed document `p` names first within 40 characters after the relation's words, other than p's own. */
export function relatedDocument<P extends ListedPassage>(p: P, relation: RegExp, passages: readonly P[]): P | undefined {
  const rel = new RegExp(relation.source, 'gi');
  let best: { q: P; at: number } | undefined;
  for (const q of passages) {
    if (q.start !== 0 || q.doc_id === p.doc_id) continue;
    const title = short(documentTitle(q.text, q.metadata));
    if (title.length < 3) continue;
    const at = p.text.indexOf(title);
    if (at < 0 || (best && at >= best.at)) continue;
    for (const m of p.text.matchAll(rel)) {
      const gap = at - (m.index + m[0].length);
      if (gap >= 0 && gap <= 40) {
        best = { q, at };
        break;
      }
    }
  }
  return best?.q;
}
