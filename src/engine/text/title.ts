// A document's title: `metadata.title` when that is a string, else its first line when the line is
// short and more lines follow ("Devotion (1929 film)\nDevotion is ..."), else the subject its first
// sentence names, as encyclopedic and reference text opens: "Guido Brignone (6 December 1886 – 6
// March 1959) was an Italian film director" is about "Guido Brignone". The subject is the text before
// the first verb of being ("is", "was", "has been", "refers to", ...), bracket, comma, dash or "or" of
// the first sentence (a title in quotes is taken whole), used only when it reads as a name: a few
// words, first and last capitalised, not opening with a pronoun, quantifier or preposition ("In
// 2001, ...", "He was ..." and "Child soldiers have ..." name no subject) unless the opener is a
// pronoun or determiner followed by a capitalised word ("My Three Angels is a 1955 film", "He
// Jianjun (born 1960)"). A document with no title is indexed without one. Pure.
import { TITLES } from '../params.js';

/** Capitalised words that open a sentence without naming its subject. */
const NOT_A_SUBJECT = new Set(
  `He She It They We I You His Her Its Their Our My Your This That These Those There Here One Some Many Most Several Few Each Every Other
  Another Such Both All Any No None In On At By For From As After Before During Since Under With Without Although While When If
  Despite Following According Unlike Like Among Between Within Upon Over Through Throughout Around Near Once Also However Today`.split(
    /\s+/,
  ),
);

/** Openers of NOT_A_SUBJECT that begin a name when a capitalised word follows ("They Came to Cordura"). */
const NAME_OPENERS = new Set('He She It They We I You His Her Its Their Our My Your This That These Those There Here'.split(' '));

/** Where a first sentence's subject ends: a bracket, comma, colon or dash, an "or" naming it again, or the verb. */
const SUBJECT_END = /\s*[([,;:–—]|\s+(?:or|is|was|are|were|has been|had been|have been|refers to|may refer to)\s/u;

/** A word that ends a sentence: two lower-case letters or more, then . ! or ? (an initial or "Jr." does not). */
const SENTENCE_END = /\p{Ll}{2,}[.!?]\s/u;

const bare = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const capitalised = (w: string) => {
  const b = bare(w);
  return b !== '' && (/\p{N}/u.test(b[0]) || b[0] !== b[0].toLowerCase());
};

/** The subject the text's first sentence names, or '' when it names none that reads as a name. */
export function leadSubject(text: string): string {
  const head = text.trimStart().slice(0, TITLES.maxLine + 40);
  const quoted = /^["“]([^"”\n]{1,100})["”]/u.exec(head);
  if (quoted) return quoted[1].trim();
  const end = SUBJECT_END.exec(head);
  if (!end) return '';
  const subject = head.slice(0, end.index).trim();
  if (!subject || subject.length > TITLES.maxLine || SENTENCE_END.test(`${subject} `) || subject.includes('\n')) return '';
  const words = subject.split(/\s+/);
  if (words.length > TITLES.subjectWords) return '';
  const opener = bare(words[0]);
  const openedName = NAME_OPENERS.has(opener) && words.length > 1 && /^\p{Lu}/u.test(bare(words[1]));
  if (NOT_A_SUBJECT.has(opener) && !openedName) return '';
  // a name: its first and last words capitalised, and at most half of the others in lower case
  // ("Fujiwara no Yoritada", "The discography of Weezer"; not "The woman's film")
  const lower = words.filter((w) => !capitalised(w)).length;
  return capitalised(words[0]) && capitalised(words[words.length - 1]) && lower <= words.length / 2 ? subject : '';
}

export function documentTitle(text: string, metadata?: Record<string, unknown>): string {
  const t = metadata?.title;
  if (typeof t === 'string' && t.trim()) return t.trim();
  const nl = text.indexOf('\n');
  if (nl > 0) {
    const first = text.slice(0, nl).trim();
    if (first.length <= TITLES.maxLine && !/[.!?:;,]$/.test(first)) return first;
  }
  return leadSubject(text);
}
