// Synthetic single-hop questions written from an article's own text, so that the confidence returned
// learns from questions that one passage answers, even when no human single-hop question is in
// training (the generalisation evaluation's SQuAD fold). They are confidence-only: they train the
// `conf` sufficiency models and the returned calibration, never the rankers or the models the loop
// decides by (steps.ts fitAll). Deterministic: a question is the words around an answer span of one
// sentence (a year, a number and the noun after it, or a run of capitalised words that the title
// does not hold), that span taken out and a wh-phrase put first; a sentence opening with a pronoun
// has it replaced by the article's title. The answer span is the question's evidence (a passage of
// the article holding it), as for SQuAD's questions.
import zlib from 'node:zlib';
import type { CorpusDoc, TrainQuery } from './data.js';
import { HYPER, STOP_WORDS } from './hyper.js';

const STOP = new Set(STOP_WORDS);

/** The suite name of the synthetic questions (training sets and cross-validated figures). */
export const SYNTHETIC_SUITE = 'squad-train-synthetic';

const PRONOUNS = new Set(['he', 'she', 'it', 'they', 'his', 'her', 'its', 'their', 'this', 'these']);
const LINKS = new Set(['in', 'on', 'by', 'since', 'until', 'from', 'of', 'at', 'about', 'around', 'to']);
const YEAR = /^(1[0-9]{3}|20[0-9]{2})$/;
const NUMBER = /^\d[\d,.]*$/;
const CAPITAL = /^\p{Lu}/u;

interface Span {
  at: number;
  end: number;
  wh: string;
  /** words taken out with the answer: a preposition before a year, the noun after a number */
  from: number;
  to: number;
}

/** The answer span of a sentence's words, by the first kind that has one (year, number, name), or undefined. */
function answerSpan(words: string[], title: Set<string>): Span | undefined {
  for (let i = 1; i < words.length; i++) {
    if (YEAR.test(words[i])) {
      const from = LINKS.has(words[i - 1].toLowerCase()) ? i - 1 : i;
      return { at: i, end: i + 1, wh: 'In what year', from, to: i + 1 };
    }
  }
  for (let i = 1; i + 1 < words.length; i++) {
    if (NUMBER.test(words[i]) && /^\p{Ll}+$/u.test(words[i + 1]))
      return { at: i, end: i + 1, wh: `How many ${words[i + 1]}`, from: i, to: i + 2 };
  }
  for (let i = 1; i < words.length; i++) {
    const name = (w: string) => CAPITAL.test(w) && !STOP.has(w.toLowerCase()) && !title.has(w.toLowerCase());
    if (!name(words[i])) continue;
    let end = i + 1;
    while (end < words.length && name(words[end])) end++;
    if (end - i >= 2) return { at: i, end, wh: LINKS.has(words[i - 1].toLowerCase()) ? 'Where' : 'What', from: i, to: end };
    i = end;
  }
  return undefined;
}

/** One question from a sentence, or undefined when it has no answer span or is too short or long to ask about. */
export function questionOf(sentence: string, title: string): { text: string; answer: string } | undefined {
  const { before, after, minWords, maxWords } = HYPER.synthetic;
  const words = sentence
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
  if (words.length < minWords || words.length > maxWords) return undefined;
  const titleWords = new Set(title.toLowerCase().split(/\s+/));
  const span = answerSpan(words, titleWords);
  if (!span) return undefined;
  const answer = words.slice(span.at, span.end).join(' ');
  if (!sentence.includes(answer)) return undefined;
  const kept = [...words.slice(Math.max(0, span.from - before), span.from), ...words.slice(span.to, span.to + after)];
  if (PRONOUNS.has(words[0].toLowerCase())) {
    if (span.from - before <= 0) kept.shift();
    kept.unshift(title);
  }
  while (kept.length && STOP.has(kept[0].toLowerCase())) kept.shift();
  while (kept.length && STOP.has(kept[kept.length - 1].toLowerCase())) kept.pop();
  return kept.length < 3 ? undefined : { text: `${span.wh} ${kept.join(' ')}?`, answer };
}

/**
 * Up to `perArticle` questions of each article (`docs`: paragraphs separated by blank lines,
 * titled by metadata.title), spread over its sentences as evenly as its answerable ones allow;
 * the sentence taken in each stretch is picked by a hash of the article and the stretch.
 */
export function syntheticQuestions(docs: CorpusDoc[], perArticle: number, suite: string): TrainQuery[] {
  const out: TrainQuery[] = [];
  for (const d of docs) {
    const title = String(d.metadata.title ?? '');
    const asked = d.text
      .split(/\n\s*\n/)
      .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[\p{Lu}"(])/u))
      .map((s) => questionOf(s, title))
      .filter((q) => q !== undefined);
    const step = asked.length / perArticle;
    for (let k = 0; k < Math.min(perArticle, asked.length); k++) {
      const lo = Math.floor(k * Math.max(step, 1));
      const hi = Math.max(lo + 1, Math.floor((k + 1) * Math.max(step, 1)));
      const q = asked[lo + (zlib.crc32(`${d.id}#${k}`) % (hi - lo))];
      out.push({
        id: `${d.id}#synthetic-${k}`,
        suite,
        text: q.text,
        gold: [d.id],
        type: 'single-hop',
        answers: [q.answer],
        confidenceOnly: true,
      });
    }
  }
  return out;
}
