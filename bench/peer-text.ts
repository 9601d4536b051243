// What the peers are given and how their answers are scored: the corpus variants (wiki-pool; the
// long SQuAD articles whole, as svc gets them, or split at blank lines the way a careful user would
// chunk them), the English stop-word list used as the peers' "obvious tuning", query terms for
// engines that need an explicit query expression, and the hit rules of ../shared/bench/README.md.
// Invariants: a split passage is an exact trimmed substring of its document between blank lines and
// keeps its document's id in `docId`; a passage longer than MAX_PASSAGE never counts as an answer
// passage (the README's rule that returning whole documents does not count).
import { type Doc, LONG_DOC_SUITE, MULTI_HOP_SUITES, type Query, suiteCorpus, suiteQueries } from './bench-util.js';

export const MAX_PASSAGE = 1200;

/** The common English stop-word list (NLTK's), the one users paste into a search config. */
export const STOP_WORDS = (
  'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
  'could did do does doing don down during each few for from further had has have having he her here hers herself him himself ' +
  'his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ' +
  'ourselves out over own s same she should so some such t than that the their theirs them themselves then there these they ' +
  'this those through to too under until up very was we were what when where which while who whom why will with would you ' +
  'your yours yourself yourselves'
).split(' ');
const STOP = new Set(STOP_WORDS);

/** Lower-cased letter/digit runs; the query terms a user would OR together. */
export function queryTerms(q: string, dropStop: boolean): string[] {
  const terms = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !dropStop || !STOP.has(t));
  return [...new Set(terms)];
}

/** A unit the peers index: `id` unique, `docId` the source document, `title` a separate field. */
export interface Unit {
  id: string;
  docId: string;
  title: string;
  body: string;
}

export type CorpusName = 'wiki' | 'squad-whole' | 'squad-split';

export interface Workload {
  corpus: CorpusName;
  /** Source documents, as svc receives them. */
  docs: Doc[];
  /** What the peers index (documents, or their blank-line paragraphs). */
  units: Unit[];
  suites: Array<{ name: string; queries: Query[] }>;
}

const BLANK_LINE = /\n[ \t\r\f\v]*\n\s*/;

function titleAndBody(d: Doc): { title: string; body: string } {
  const title = typeof d.metadata?.title === 'string' ? d.metadata.title : '';
  const nl = d.text.indexOf('\n');
  // wiki-pool texts start with their title line; the body is the rest. Articles have no title line.
  if (title && nl > 0 && d.text.slice(0, nl).trim() === title) return { title, body: d.text.slice(nl + 1) };
  return { title, body: d.text };
}

export function splitAtBlankLines(d: Doc): Unit[] {
  const { title } = titleAndBody(d);
  return d.text
    .split(BLANK_LINE)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((body, i) => ({ id: `${d.id}#${i}`, docId: d.id, title, body }));
}

export function loadWorkload(corpus: CorpusName, limits: { multiHop?: number; squad?: number }): Workload {
  if (corpus === 'wiki') {
    const docs = suiteCorpus('hotpotqa-dev');
    const units = docs.map((d) => ({ id: d.id, docId: d.id, ...titleAndBody(d) }));
    return { corpus, docs, units, suites: MULTI_HOP_SUITES.map((name) => ({ name, queries: suiteQueries(name, limits.multiHop) })) };
  }
  const docs = suiteCorpus(LONG_DOC_SUITE);
  const units =
    corpus === 'squad-whole' ? docs.map((d) => ({ id: d.id, docId: d.id, ...titleAndBody(d) })) : docs.flatMap(splitAtBlankLines);
  return { corpus, docs, units, suites: [{ name: LONG_DOC_SUITE, queries: suiteQueries(LONG_DOC_SUITE, limits.squad) }] };
}

/** One returned item: the source document and the text returned for it. */
export interface Hit {
  docId: string;
  text: string;
}

export function allGold(q: Query, hits: Hit[], k: number): boolean {
  const got = new Set(hits.slice(0, k).map((h) => h.docId));
  return q.gold_doc_ids.every((g) => got.has(g));
}

/** Answer-passage hit@k; `capped` applies the README's 1,200-character passage rule. */
export function answerHit(q: Query, hits: Hit[], k: number, capped = true): boolean {
  const gold = new Set(q.gold_doc_ids);
  return hits
    .slice(0, k)
    .some((h) => gold.has(h.docId) && (!capped || h.text.length <= MAX_PASSAGE) && (q.answers ?? []).some((a) => h.text.includes(a)));
}

export function docHit(q: Query, hits: Hit[], k: number): boolean {
  const gold = new Set(q.gold_doc_ids);
  return hits.slice(0, k).some((h) => gold.has(h.docId));
}
