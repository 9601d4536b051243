// Answers to questions that ask a person's nationality or relative, of a person the question names
// or reaches through a relation ("What nationality is the director of film X?", "Which country the
// performer of song X is from?", "Who is the child of the director of film X?", "Who is X's
// spouse?"): a reader of single spans answers them from the passage that holds the question's
// words, the film's. The person is reached as for births and deaths (compared.ts
// reachedDocuments); the nationality is the one its opening sentence states (same-country.ts
// countryMention), written as its passage writes it ("American"); a relative is the name its passage
// gives after the relative's words: a child after "father of" / "mother of" / "his son", a spouse
// after "married" / "his wife", a parent after "his father" / "her mother", or after "son of" (the
// father, the first name; the mother, the name after "and"); a grandparent or in-law is the
// parent's or spouse's, through the listed document of the name given. Invariants: the answer is
// an exact substring of the passage it was read from; it cites that document, those passed through
// and the one the question named; nothing is answered (undefined) when no listed document is
// reached or a passage does not state what is asked, and the reader answers instead.
import { type Answered, documentNamed, reachedDocuments, relationOf } from './compared.js';
import { countriesIn } from './countries.js';
import type { ListedPassage } from './reader-chain.js';
import { countryMention } from './same-country.js';
import { cutName } from './text-units.js';

type Kin = 'child' | 'spouse' | 'father' | 'mother';

/** The relatives a question asks of, longest first, and the steps to each: a grandfather is a parent's father. */
const KIN_PATHS: Record<string, Kin[]> = {
  'paternal grandfather': ['father', 'father'],
  'paternal grandmother': ['father', 'mother'],
  'maternal grandfather': ['mother', 'father'],
  'maternal grandmother': ['mother', 'mother'],
  'father-in-law': ['spouse', 'father'],
  'mother-in-law': ['spouse', 'mother'],
  child: ['child'],
  son: ['child'],
  daughter: ['child'],
  spouse: ['spouse'],
  husband: ['spouse'],
  wife: ['spouse'],
  father: ['father'],
  mother: ['mother'],
};
const KIN_WORDS = Object.keys(KIN_PATHS).join('|');
/** "Who is the child of the director of film X?": the relative, and the words that name whose. */
const KIN_ASKED = new RegExp(`^who (?:is|was) (?:the )?(${KIN_WORDS}) of (.+?)\\??$`, 'i');
/** "Who is X's paternal grandfather?" */
const KIN_POSSESSIVE = new RegExp(`^who (?:is|was) (.+?)['’]s? (${KIN_WORDS})\\??$`, 'i');

/** How a passage names each relative: the words right before the name. */
const KIN_CUES: Record<Kin, RegExp> = {
  child: /\b(father|mother|parent) of|\b(his|her|their) (sons?|daughters?|children|child)\b,?/gi,
  spouse: /\bmarried(?: to)?|\b(his|her) (wife|husband|spouse)\b,?|\b(wife|husband) of\b/gi,
  father: /\b(his|her|their) father\b,?|\b(son|daughter|child) of\b/gi,
  mother: /\b(his|her|their) mother\b,?/gi,
};

const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}'’.-]*)`;
/** After a cue: up to four lower-case words ("the actress"), then a name: capitalised words, with "of", "de", "von"... inside. */
const NAME_AFTER = new RegExp(
  String.raw`^\s*(?:(?:the|a|an|\p{Ll}+)\s+){0,4}(${NAME_WORD}(?:\s+(?:${NAME_WORD}|of|de|von|van|da|di|del|la|le))*)`,
  'u',
);

/** The name right after index `at` of `text`, as [start, end), past a nationality before it ("American playwright Tom Cole"). */
function nameAt(text: string, at: number): [number, number] | undefined {
  const m = NAME_AFTER.exec(text.slice(at));
  if (!m) return undefined;
  const name = cutName(m[1], /\s+(of|de|von|van|da|di|del|la|le)$/);
  const start = at + m[0].length - m[1].length;
  const [nationality] = countriesIn(name);
  if (nationality?.index === 0 && nationality.name.length < name.length && /\s/.test(name[nationality.name.length]))
    return nameAt(text, start + nationality.name.length);
  if (nationality?.index === 0 && nationality.name === name) return nameAt(text, start + name.length);
  return [start, start + name.length];
}

/** The first name `text` gives right after one of the (global) `cues` from index `from` on, as [start, end). */
export function nameAfter(text: string, cues: RegExp, from = 0): [number, number] | undefined {
  for (const m of text.slice(from).matchAll(cues)) {
    const at = nameAt(text, from + m.index + m[0].length);
    if (at) return at;
  }
  return undefined;
}

/** Where the person's passage names the relative asked. */
function relativeIn(text: string, kin: Kin): [number, number] | undefined {
  const first = nameAfter(text, KIN_CUES[kin]);
  if (first || kin !== 'mother') return first;
  for (const m of text.matchAll(/\b(son|daughter|child) of\b/gi)) {
    const father = nameAt(text, m.index + m[0].length);
    const and = father && /^\s+and\s+/.exec(text.slice(father[1]));
    if (father && and) return nameAt(text, father[1] + and[0].length);
  }
  return undefined;
}

/** The answer to a question of a person's nationality or relative from the listed passages, or undefined. */
export function answerPersonFact<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const q = question.trim().replace(/\s+/g, ' ');
  const kinAsked = KIN_ASKED.exec(q);
  const kinPossessive = kinAsked ? undefined : KIN_POSSESSIVE.exec(q);
  const kinWord = kinAsked?.[1] ?? kinPossessive?.[2];
  const path = kinWord ? KIN_PATHS[kinWord.toLowerCase()] : undefined;
  const nationality = !path && /^(what nationality (is|was)|which country\b.*\bfrom\b)/i.test(q);
  if (!path && !nationality) return undefined;
  const whose = kinAsked?.[2] ?? kinPossessive?.[1] ?? q;
  for (const { doc, from } of reachedDocuments(whose, passages, relationOf(whose.toLowerCase()))) {
    const got = path ? relativeAlong(doc, path, passages) : answeredFrom(doc, mentionSpan(doc));
    if (got) return { text: got.text, citations: [...new Set([...got.citations, from.doc_id])] };
  }
  return undefined;
}

const answeredFrom = (p: ListedPassage, span: [number, number] | undefined): Answered | undefined =>
  span && { text: p.text.slice(span[0], span[1]), citations: [p.doc_id] };

/** The relative at the end of `path` from `p`: each step but the last to the listed document of the name its passage gives. */
function relativeAlong<P extends ListedPassage>(p: P, path: Kin[], passages: readonly P[]): Answered | undefined {
  const span = relativeIn(p.text, path[0]);
  if (path.length === 1) return answeredFrom(p, span);
  const next = span && documentNamed(p.text.slice(span[0], span[1]), passages);
  if (!next || next.p.doc_id === p.doc_id) return undefined;
  const rest = relativeAlong(next.p, path.slice(1), passages);
  return rest && { text: rest.text, citations: [...rest.citations, p.doc_id] };
}

function mentionSpan(p: ListedPassage): [number, number] | undefined {
  const m = countryMention(p);
  return m && [m.index, m.index + m.name.length];
}
