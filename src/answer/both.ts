// Answers to questions that ask whether two things are both of a kind ("Are A and B both dog
// breeds?", "Are both A and B located in Michigan?", "Were A and B both American directors?"):
// yes or no, which no span of a passage is. The two things are the listed documents the question
// names by title (compared.ts), joined by "and" right after its verb; the kind is what follows the
// second one. A document is of the kind when its opening passage (stems, and the parts of hyphened
// words: "computer-animated" holds "animated") holds every capitalised word of the kind (a place, a
// name) and at least half of its other content words ("breeds of dog": a "herding dog" is one),
// the verbs of place and regard ("located", "considered") aside; a country the kind names ("both
// American", "from the United States"; not a US state or England, which are words to hold) is the
// document's own country (same-country.ts countryOf), however its passage names it. Invariants: the
// answer is "yes" when both documents are of the kind and "no" otherwise; it cites both documents;
// nothing is answered (undefined) when the question asks a sameness, a likeness or a degree ("the
// same band", "similar topics", "taller than"), when either thing is not a listed document, or when
// the kind has no content word, and the reader answers instead.
import { stem } from '../engine/index.js';
import { type Answered, type Compared, documentsNamedIn, titled } from './compared.js';
import { countriesIn } from './countries.js';
import type { ListedPassage } from './reader-chain.js';
import { countryOf } from './same-country.js';
import { escapeRegExp, STOP, words } from './text-units.js';

const ASKS = /^(are|is|were|was)\b/i;
const BOTH = /\bboth\b/i;
/** What the kind is not: a sameness, a likeness, a degree or two claims. */
const NOT_A_KIND = /\b(same|similar|different|alike|than|while|whereas|each other)\b/i;
/** Before the first thing: the verb, "both", and at most two words that name their class ("Are both magazines, the ..."). */
const BEFORE_FIRST = /^(?:are|is|were|was)\s+(?:both\s+)?(?:[\p{L}-]+,?\s+){0,2}?(?:the\s+)?$/iu;
/** Between the two things. */
const BETWEEN = /^\s*,?\s+and\s+(?:the\s+)?$/i;
/** Verbs of place and regard that a passage seldom repeats ("located in Michigan": Michigan decides). */
const LOOSE = new Set(['located', 'situated', 'considered', 'known', 'regarded', 'classified', 'described', 'both'].map((w) => stem(w)));

/** Where a title is named in the question: [start, end) of its last mention, case and a possessive aside. */
function mention(question: string, title: string): [number, number] | undefined {
  const parts = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (parts.length === 0) return undefined;
  const source = parts.map(escapeRegExp).join(String.raw`[^\p{L}\p{N}]+`);
  const all = [...question.matchAll(new RegExp(String.raw`(?<![\p{L}\p{N}])${source}(?:['’]s)?(?![\p{L}\p{N}])`, 'giu'))];
  const m = all.at(-1);
  return m ? [m.index, m.index + m[0].length] : undefined;
}

/** The content stems of a document's opening passage past its title line, hyphened words also by their parts. */
function heldStems(p: ListedPassage): Set<string> {
  const w = words(p.text.slice(titled(p).body));
  const held = new Set(w.stem);
  for (const lower of w.lower) if (/[-’']/.test(lower)) for (const part of lower.split(/[-’']/)) if (part) held.add(stem(part));
  return held;
}

/** The two things and the kind a question asks of, or undefined when it asks no such question. */
function bothOf<P extends ListedPassage>(
  question: string,
  passages: readonly P[],
): { things: [Compared<P>, Compared<P>]; names: string[]; common: string[]; countries: string[] } | undefined {
  const q = question.trim().replace(/\s+/g, ' ');
  if (!ASKS.test(q) || !BOTH.test(q) || NOT_A_KIND.test(q)) return undefined;
  const named = documentsNamedIn(q, passages);
  if (named.length < 2) return undefined;
  const [a, b] = named;
  const at = mention(q, a.named);
  const bt = mention(q, b.named);
  if (!at || !bt || bt[0] < at[1]) return undefined;
  if (!BEFORE_FIRST.test(q.slice(0, at[0])) || !BETWEEN.test(q.slice(at[1], bt[0]))) return undefined;
  const kindText = q.slice(bt[1]);
  const countries = countriesIn(kindText).filter((m) => !m.region);
  const ofCountry = new Set(countries.flatMap((m) => words(m.name).stem));
  const w = words(kindText);
  const names = new Set<string>();
  const common = new Set<string>();
  w.stem.forEach((s, i) => {
    if (!STOP.has(w.lower[i]) && !LOOSE.has(s) && !ofCountry.has(s)) (w.cap[i] ? names : common).add(s);
  });
  const kind = { names: [...names], common: [...common], countries: [...new Set(countries.map((m) => m.country))] };
  return kind.names.length + kind.common.length + kind.countries.length > 0 ? { things: [a, b], ...kind } : undefined;
}

/** The answer to a "both of a kind" question from the listed passages, or undefined when it cannot be made. */
export function answerBoth<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const asked = bothOf(question, passages);
  if (!asked) return undefined;
  const holds = asked.things.map(({ p }) => {
    const held = heldStems(p);
    const common = asked.common.filter((s) => held.has(s)).length;
    const country = asked.countries.length > 0 ? countryOf(p) : undefined;
    return asked.names.every((s) => held.has(s)) && common * 2 >= asked.common.length && asked.countries.every((c) => c === country);
  });
  return { text: holds.every(Boolean) ? 'yes' : 'no', citations: asked.things.map(({ p }) => p.doc_id) };
}
