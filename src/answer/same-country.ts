// Answers to questions that ask whether things are of one country ("Are A and B located in the same
// country?", "Were A and B of the same nationality?", "Are the directors of films A and B from the
// same country?"): yes or no, which no span of a passage is. The things are the listed documents the
// question names by title (compared.ts), or, when it asks of a person they relate to ("the
// directors"), the documents those name after the relation's word. A document's country is the
// one its opening sentence gives: the nationality it states ("is an American actor"), else the
// last country that sentence names ("a village in Kerman Province, Iran"), else the first its
// passage names; a US state or a constituent country stands for its state (countries.ts).
// Invariants: the answer is "yes" when every country is the same and "no" otherwise; it cites the
// documents whose countries were compared; nothing is answered (undefined) when fewer than two
// documents are named or one has no country, and the reader answers instead.
import { type Answered, documentsNamedIn, relatedDocument, relationOf, titled } from './compared.js';
import { type CountryMention, countriesIn } from './countries.js';
import type { ListedPassage } from './reader-chain.js';
import { normalizeAnswer, sentences, words } from './text-units.js';

const ASKS = /^(are|is|were|was|do|does|did)\b.*\bsame (country|nationality)\b/i;
/** What comes before a nationality the sentence states: "is an", "was a", up to three words between. */
const STATES = /\b(is|was|are|were)\s+(an?|the)\s+([^\s.;]+\s+){0,3}$/;
/** What comes after an adjective of birthplace or descent, not nationality: "Italian-born". */
const NOT_NATIONALITY = /^-?(born|descent|origin)\b|^\s+(descent|origin)\b/;

/** Where a document's passage states the country of its subject, or undefined when it names none. */
export function countryMention(p: ListedPassage): CountryMention | undefined {
  const { title, body: at } = titled(p);
  const body = p.text.slice(at);
  const own = ` ${normalizeAnswer(title)} `;
  const named = countriesIn(body).filter((m) => !own.includes(` ${normalizeAnswer(m.name)} `));
  if (named.length === 0) return undefined;
  const w = words(body);
  const [first] = sentences(w);
  const end = first ? w.end[first[1] - 1] : body.length;
  const inFirst = named.filter((m) => m.index < end);
  const stated = inFirst.find((m) => {
    const after = body.slice(m.index).replace(/^[^\s,-]+/, '');
    return STATES.test(body.slice(Math.max(0, m.index - 60), m.index)) && !NOT_NATIONALITY.test(after);
  });
  const m = stated ?? inFirst.at(-1) ?? named[0];
  return { ...m, index: m.index + at };
}

/** The country of a document's subject, or undefined when its passage names none. */
export function countryOf(p: ListedPassage): string | undefined {
  return countryMention(p)?.country;
}

/** The answer to a same-country question from the listed passages, or undefined when it cannot be made. */
export function answerSameCountry<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  if (!ASKS.test(question.trim())) return undefined;
  const relation = relationOf(question.toLowerCase());
  const named = documentsNamedIn(question, passages);
  if (named.length < 2) return undefined;
  const evidence = named.map(({ p }) => (relation ? relatedDocument(p, relation, passages) : p));
  if (evidence.some((e) => !e)) return undefined;
  const countries = evidence.map((e) => e && countryOf(e));
  if (countries.some((c) => !c)) return undefined;
  const same = countries.every((c) => c === countries[0]);
  const citations = [...new Set(named.flatMap(({ p }, i) => [p.doc_id, evidence[i]?.doc_id ?? p.doc_id]))];
  return { text: same ? 'yes' : 'no', citations };
}
