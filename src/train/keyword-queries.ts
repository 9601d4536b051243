// The keyword form of a training question, as a user who types keywords would write it: the
// question's words less its function words (the stop list) and question words, where a function
// word inside a name ("Battle of Hastings", "The Prairie King") is kept, since a user keeps names
// whole. Invariant: a keyword form never reads as a question (isQuestion in engine ranking/question.ts
// is false for it), so the keyword sufficiency models are trained on the queries they serve.
import { isQuestionWord } from '../engine/index.js';
import { STOP_WORDS } from './hyper.js';

const STOP = new Set(STOP_WORDS);
const named = (t: string | undefined) => t !== undefined && /^[\p{Lu}\p{N}]/u.test(t);

export function keywordForm(question: string): string {
  const toks = (question.match(/[\p{L}\p{N}'’.-]+/gu) ?? []).map((t) => t.replace(/^[.]+|[.]+$/g, '')).filter((t) => t.length > 0);
  return toks
    .filter((t, i) => {
      if (isQuestionWord(t)) return false;
      const low = t.toLowerCase().replace(/['’]s$/, '');
      if (!STOP.has(low)) return true;
      // inside a name: between two capitalised words, or a capitalised one starting a name ("The Prairie King")
      return named(toks[i + 1]) && (named(toks[i - 1]) || (i > 0 && named(t)));
    })
    .join(' ');
}
