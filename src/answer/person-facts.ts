// Answers to questions that ask a person's nationality or relative, of a person the question names
// or reaches through a relation ("What nationality is the director of film X?", "Which country the
// performer of song X is from?", "Who is the child of the director of film X?", "Who is X's
// spouse?"): a reader of single spans answers them from the passage that holds the question's
// words, the film's. The person is reached as for births and deaths (compared.ts
// reachedDocuments); the nationality is the one its opening sentence states (same-country.ts
// countryMention), written as its passage writes it ("American"); a relative is the name its passage
// gives after the relative's words: a child after "father of" / "mother of" / "his son", a spouse
// after "married" / "his wife", a parent after "his father" / "her mother", or after "son of" (the
// father, the first name; the mother, the name after "and"). Invariants: the answer is an exact
// substring of the person's passage; it cites that document and the one that led there; nothing is
// answered (undefined) when no listed document is reached or its passage does not state what is
// asked, and the reader answers instead.
import { reachedDocuments, relationOf } from './compared.js';
import { countriesIn } from './countries.js';
import type { ListedPassage } from './reader-chain.js';
import { countryMention } from './same-country.js';

type Kin = 'child' | 'spouse' | 'father' | 'mother';

/** The relative a question asks, and the words after it that name whose: "child" and "the director of film X". */
const KIN_ASKED = /^who (?:is|was) (?:the )?(child|son|daughter|spouse|husband|wife|father|mother) of (.+?)\??$/i;
const KIN_POSSESSIVE = /^who (?:is|was) (.+?)['’]s? (child|son|daughter|spouse|husband|wife|father|mother)\??$/i;
const KIN_OF: Record<string, Kin> = {
  child: 'child',
  son: 'child',
  daughter: 'child',
  spouse: 'spouse',
  husband: 'spouse',
  wife: 'spouse',
  father: 'father',
  mother: 'mother',
};

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
  const name = m[1]
    .split(/\.\s/)[0]
    .replace(/\s+(of|de|von|van|da|di|del|la|le)$/, '')
    .replace(/[.’']+$/, '');
  const start = at + m[0].length - m[1].length;
  const [nationality] = countriesIn(name);
  if (nationality?.index === 0 && nationality.name.length < name.length && /\s/.test(name[nationality.name.length]))
    return nameAt(text, start + nationality.name.length);
  if (nationality?.index === 0 && nationality.name === name) return nameAt(text, start + name.length);
  return [start, start + name.length];
}

/** Where the person's passage names the relative asked. */
function relativeIn(text: string, kin: Kin): [number, number] | undefined {
  for (const m of text.matchAll(KIN_CUES[kin])) {
    const first = nameAt(text, m.index + m[0].length);
    if (first) return first;
  }
  if (kin !== 'mother') return undefined;
  for (const m of text.matchAll(/\b(son|daughter|child) of\b/gi)) {
    const father = nameAt(text, m.index + m[0].length);
    const and = father && /^\s+and\s+/.exec(text.slice(father[1]));
    if (father && and) return nameAt(text, father[1] + and[0].length);
  }
  return undefined;
}

type Answered = { text: string; citations: string[] };

/** The answer to a question of a person's nationality or relative from the listed passages, or undefined. */
export function answerPersonFact<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const q = question.trim().replace(/\s+/g, ' ');
  const kinAsked = KIN_ASKED.exec(q);
  const kinPossessive = kinAsked ? undefined : KIN_POSSESSIVE.exec(q);
  const kin = kinAsked ? KIN_OF[kinAsked[1].toLowerCase()] : kinPossessive ? KIN_OF[kinPossessive[2].toLowerCase()] : undefined;
  const nationality = !kin && /^(what nationality (is|was)|which country\b.*\bfrom\b)/i.test(q);
  if (!kin && !nationality) return undefined;
  const whose = kinAsked?.[2] ?? kinPossessive?.[1] ?? q;
  for (const { doc, from } of reachedDocuments(whose, passages, relationOf(whose.toLowerCase()))) {
    const span = kin ? relativeIn(doc.text, kin) : mentionSpan(doc);
    if (span) return { text: doc.text.slice(span[0], span[1]), citations: [...new Set([doc.doc_id, from.doc_id])] };
  }
  return undefined;
}

function mentionSpan(p: ListedPassage): [number, number] | undefined {
  const m = countryMention(p);
  return m && [m.index, m.index + m.name.length];
}
