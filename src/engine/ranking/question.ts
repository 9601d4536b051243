// What the ranking reads of a question's wording alone: whether it is phrased as a question or
// typed as keywords (the two have separate sufficiency models), what kind of answer it asks for,
// its depth (how many entities it describes rather than names: "the country where the composer of X
// was born") and the multi-word names it contains, each with its head (the name before a bracket or
// comma inside it). Pure functions of the question's tokens.
import type { Query, QuestionName } from './types.js';

/** Words that make a query a question (isQuestion). */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(['who', 'whom', 'whose', 'which', 'where', 'when', 'what', 'how', 'why']);

/** Wh-words that start a relative clause or a question inside a question ("that" included). */
const WH = new Set(['who', 'whom', 'whose', 'which', 'where', 'when', 'what', 'that']);

/** Words that tie a definite description to what it is described by ("the country where ..."). */
const LINKS = new Set(['of', 'where', 'who', 'which', 'that', 'in', 'whose', 'from', 'by', 'with', 'for', 'on', 'at']);

const ASKS_NUMBER = /\bhow (many|much)\b|\bwhat (number|percentage|percent|amount)\b/i;
const ASKS_DATE = /\bwhen\b|\bwhat (year|century|decade|date|month|day|time)\b|\bwhich (year|century|decade)\b|\bhow long\b/i;

/**
 * Whether a query is phrased as a question (a question mark or a question word) rather than typed
 * as keywords ("director film The Last Lord died"): the two are calibrated by separate sufficiency
 * models, since a keyword query lacks the structure words several features read.
 */
export function isQuestion(query: string): boolean {
  return query.includes('?') || query.split(/\s+/).some(isQuestionWord);
}

/** Whether a word is a question word, in any case, with its punctuation and a contraction ("Who's", "who've") or not ("Who-related" is not). */
export function isQuestionWord(word: string): boolean {
  const w = word
    .toLowerCase()
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    .replace(/['’](s|ve|re|d|ll)$/, '');
  return QUESTION_WORDS.has(w);
}

/** What kind of answer the question asks for: a number, a date, or anything else. */
export function answerKind(text: string): 'number' | 'date' | 'other' {
  return ASKS_NUMBER.test(text) ? 'number' : ASKS_DATE.test(text) ? 'date' : 'other';
}

/**
 * The question's depth: its definite descriptions ("the" followed within three words by a linking
 * word, unless a name follows "the"), possessives, and wh-words after the first word. Deeper
 * questions take more hops: MuSiQue's 3-hop questions are deeper on average than its 2-hop ones.
 */
export function questionDepth(q: Pick<Query, 'forms' | 'caps'>): number {
  const f = q.forms;
  let n = 0;
  f.forEach((w, i) => {
    if (i > 0 && (WH.has(w) || w === 's')) n++;
    if (w === 'the' && !q.caps[i + 1] && f.slice(i + 1, i + 4).some((x) => LINKS.has(x))) n++;
  });
  return n;
}

/**
 * Whether the question is written in Title Case or capitals, so its capitals mark no names: every
 * word after the first that is not a stop word is capitalised, and so is some stop word ("Who Wrote
 * The Old Man And The Sea") or every word ("Barack Obama Birth Place"). "When was the Marco Polo
 * Bridge Incident?" is not.
 */
function titleCased(q: Pick<Query, 'ids' | 'caps' | 'stops'>): boolean {
  let lower = false;
  let capitalStop = false;
  for (let i = 1; i < q.ids.length; i++) {
    if (!q.caps[i]) {
      if (!q.stops[i]) return false;
      lower = true;
    } else if (q.stops[i]) capitalStop = true;
  }
  return capitalStop || !lower;
}

/**
 * The question's multi-word names: runs of two or more capitalised tokens after its first word, not
 * all stop words ("The Last Lord", "Guitar World"), as term ids in question order, each with its
 * head (the tokens before the first bracket or comma inside the run: "Devotion" of "Devotion (1929
 * Film)"); none when the question is title-cased.
 */
export function questionNames(q: Pick<Query, 'ids' | 'caps' | 'stops' | 'breaks'>): QuestionName[] {
  const out: QuestionName[] = [];
  if (titleCased(q)) return out;
  for (let i = 1; i < q.ids.length; ) {
    let j = i;
    while (j < q.ids.length && q.caps[j]) j++;
    if (j - i >= 2 && q.stops.slice(i, j).some((s) => !s)) {
      let h = i + 1;
      while (h < j && !q.breaks[h]) h++;
      out.push({ terms: q.ids.slice(i, j), head: q.ids.slice(i, h) });
    }
    i = Math.max(j, i + 1);
  }
  return out;
}

/** What the sufficiency features read of the question alone. */
export interface QuestionFacts {
  /** the three question terms of largest idf, and the capitalised non-stop words after the first */
  rare: number[];
  capt: number[];
  nOf: number;
  nPoss: number;
  nWh: number;
  depth: number;
  names: QuestionName[];
}

/** Once per query: a search scores up to three stages, training each at several k. */
const facts = new WeakMap<Query, QuestionFacts>();
export function questionFacts(q: Query): QuestionFacts {
  let f = facts.get(q);
  if (!f) {
    const count = (pred: (w: string) => boolean) => q.forms.filter(pred).length;
    f = {
      rare: q.qt
        .map((t, i) => [t, q.qidf[i]] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([t]) => t),
      capt: [...new Set(Array.from(q.ids).filter((_, i) => i >= 1 && q.caps[i] && !q.stops[i]))],
      nOf: count((w) => w === 'of'),
      nPoss: count((w) => w === 's'),
      nWh: count((w) => WH.has(w)),
      depth: questionDepth(q),
      names: questionNames(q),
    };
    facts.set(q, f);
  }
  return f;
}
