// Answers to questions that choose between two things ("Who is older, A or B?", "Which film came
// out first, A or B?", "Which film has the director who died first, A or B?", "Which company is
// based in Kentucky, A or B?", "Which opera has more acts, A or B?", "Which building is taller, A
// or B?"), which a reader of single spans cannot compare. The question names its two options after
// its last comma (a colon before them read as one), or after its "first", "later", "taller", "more
// acts"... when it has none, or before its head ("Between A and B, which came first?") or inside it
// ("Which director, A or B, is known for ...?"); each is the listed document whose title it is
// (compared.ts). When the question asks when, the date compared is that document's (a birth, a
// death, or the event its words name: released, founded...), or, when it asks of a person the
// option relates to ("the director"), that of the document the option's passage names after the
// relation's word; when it asks a height, an area or a population ("taller", "larger", "more
// populous"), the one each passage states first (measures.ts); when it asks a count ("more acts",
// "fewer species"), the option whose passage gives the larger (smaller) number within three words
// before that noun; when it asks neither a date nor a degree, the winner is the option whose
// passage holds more of the question's words before the options, a capitalised one counting twice.
// Invariants: the answer is the chosen option's title as its passage writes it (an exact substring
// of that passage); it cites the documents compared, the chosen option's first; nothing is answered
// (undefined) when an option, a date or a quantity is not found or the two options do not differ,
// and the reader answers instead.
import { stem } from '../engine/index.js';
import { type Answered, type Compared, documentNamed, relatedDocument, relationOf, titled } from './compared.js';
import { compareDates, eventDate, lifeDates, type TextDate } from './dates.js';
import { type Measure, measureAsked, measureIn } from './measures.js';
import type { ListedPassage } from './reader-chain.js';
import { STOP, words } from './text-units.js';

/** What a choice question compares: which date, and whether the earlier or the later wins; or, with no date asked, the words of its head. */
interface Choice {
  options: [string, string];
  head: string;
  by: 'date' | 'words' | 'count' | 'measure';
  /** for a count: the counted noun's stem ("act" of "more acts"), and whether more wins */
  counted?: { stem: string; more: boolean };
  /** for a measure: which (a height, an area, a population), and whether the larger wins */
  measured?: { measure: Measure; larger: boolean };
  event: 'born' | 'died' | 'other';
  earliest: boolean;
  relation?: RegExp;
}

const EVENT_CUES =
  /\b(released|release|founded|formed|established|published|premiered|opened|built|created|launched|debuted|aired|began|started|incorporated|came out)\b/gi;
const LATER = /\b(younger|youngest|later|latest|last|more recent(ly)?|most recent(ly)?|newer|newest|after)\b/;
const EARLIER = /\b(older|oldest|elder|earlier|earliest|first|before)\b/;
/** A comparison by a number or a degree, which neither a date nor the head's words settle. */
const BY_DEGREE =
  /\b(more|most|less|least|larger|largest|greater|greatest|higher|highest|bigger|biggest|longer|longest|taller|tallest|smaller|smallest|fewer|fewest|lower|lowest|shorter|shortest|further|farther|better|best|worse|worst)\b/;

/** "more acts", "fewest species": a count the question compares, and its noun. */
const COUNTED = /\b(more|most|fewer|fewest|less|least)\s+([\p{L}-]+)/iu;
const UNITS =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** The number a word writes: digits ("75", "1,200"), or words from "zero" to "ninety-nine" ("five", "forty", "twenty-one"); -1 when none. */
export function numberWord(word: string): number {
  const w = word.replace(/,/g, '');
  if (/^\d+(\.\d+)?$/.test(w)) return Number(w);
  const unit = UNITS.indexOf(w);
  if (unit >= 0) return unit;
  const [tens, ones, ...rest] = w.split(/[-\u2010\u2011]/);
  const t = TENS.indexOf(tens);
  if (t < 2 || rest.length > 0) return -1;
  if (ones === undefined) return t * 10;
  const o = UNITS.indexOf(ones);
  return o >= 1 && o <= 9 ? t * 10 + o : -1;
}

/** The count a passage gives of a noun: the first number within three words before it ("in five acts", "about 75 species", "thirty five species"). */
function countOf(text: string, nounStem: string): number | undefined {
  const w = words(text);
  for (let i = 0; i < w.stem.length; i++) {
    if (w.stem[i] !== nounStem) continue;
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
      const n = numberWord(w.lower[j]);
      if (n < 0) continue;
      // "thirty five": a unit written as a word of its own after its tens
      const tens = j > 0 && n >= 1 && n <= 9 && /^[a-z]+$/.test(w.lower[j]) ? numberWord(w.lower[j - 1]) : -1;
      return tens >= 20 && tens < 100 && tens % 10 === 0 ? tens + n : n;
    }
  }
  return undefined;
}

/** A choice's head and its two options: after its last comma, after its "first", "taller"..., or after its "more acts"; or asked before the head ("Between A and B, which came first?") or inside it ("Which director, A or B, is known for ...?"). */
function optionsIn(q: string): [string, string, string] | undefined {
  const after =
    /^(.*),\s*([^,]+?)\s+or\s+([^,?]+?)\s*\?*$/i.exec(q) ??
    /^(.*\b(?:first|earlier|later|older|younger|more recently|taller|higher|larger|bigger|smaller|shorter|lower))\s+([^,]+?)\s+or\s+([^,?]+?)\s*\?*$/i.exec(
      q,
    ) ??
    (COUNTED.test(q) ? /^(.*\b(?:more|most|fewer|fewest|less|least)\s+[\p{L}-]+)\s+([^,]+?)\s+or\s+([^,?]+?)\s*\?*$/iu.exec(q) : null);
  if (after) return [after[1], after[2], after[3]];
  const between = /^between\s+(?:the\s+[\p{Ll}-]+\s+)?(.+?)\s+and\s+(.+?),?\s+((?:which|who)\b[^,]*?)\s*\?*$/iu.exec(q);
  if (between) return [between[3], between[1], between[2]];
  const inside = /^((?:which|who)(?:\s+[\p{L}-]+)?),\s*([^,]+?)\s+or\s+([^,]+?),\s*(.+?)\s*\?*$/iu.exec(q);
  return inside ? [`${inside[1]} ${inside[4]}`, inside[2], inside[3]] : undefined;
}

/** The choice a question asks, or undefined when it asks none this module compares. */
export function choiceOf(question: string): Choice | undefined {
  const q = question
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/,\s+or\s+/gi, ' or ');
  // "Which mountain is higher: A or B": a colon before the options read as a comma, when the question read as written has no options
  const or = q.toLowerCase().lastIndexOf(' or ');
  const n = optionsIn(q) ?? (or > 0 ? optionsIn(q.slice(0, or).replace(/:\s+/g, ', ') + q.slice(or)) : undefined);
  if (!n) return undefined;
  const counted = COUNTED.exec(q);
  const head = n[0].toLowerCase();
  const later = LATER.test(head);
  const earlier = EARLIER.test(head);
  const options: [string, string] = [n[1], n[2]];
  if (!later && !earlier) {
    if (!/^(which|who|what)\b/.test(head)) return undefined;
    const measured = measureAsked(head);
    if (measured) return { options, head: n[0], by: 'measure', measured, event: 'other', earliest: true };
    if (counted && head.includes(counted[0].toLowerCase())) {
      const more = /^(more|most)$/i.test(counted[1]);
      return { options, head: n[0], by: 'count', counted: { stem: stem(counted[2].toLowerCase()), more }, event: 'other', earliest: true };
    }
    if (BY_DEGREE.test(head) || head.startsWith('what')) return undefined;
    return { options, head: n[0], by: 'words', event: 'other', earliest: true };
  }
  if (later && earlier) return undefined;
  const event = /\b(died|die|death)\b/.test(head) ? 'died' : /\b(born|older|oldest|elder|younger|youngest)\b/.test(head) ? 'born' : 'other';
  return { options, head: n[0], by: 'date', event, earliest: earlier, relation: relationOf(head) };
}

/** How much of the head's words a passage holds: each content word once, a capitalised one (a name) twice. */
function headScore(head: string, text: string): number {
  const hw = words(head);
  const held = new Set(words(text).stem);
  let score = 0;
  const seen = new Set<string>();
  hw.stem.forEach((st, i) => {
    if (i === 0 || STOP.has(hw.lower[i]) || seen.has(st)) return;
    seen.add(st);
    if (held.has(st)) score += hw.cap[i] ? 2 : 1;
  });
  return score;
}

/** The date the choice compares in one option's evidence passage. */
function dateOf(c: Choice, evidence: ListedPassage): TextDate | undefined {
  const { text } = evidence;
  return c.event === 'other' ? eventDate(text, EVENT_CUES) : lifeDates(text, { from: titled(evidence).body, loose: true })[c.event];
}

/** The answer to a choice question from the listed passages, or undefined when it cannot be made. */
export function answerChoice<P extends ListedPassage>(question: string, passages: readonly P[]): Answered | undefined {
  const c = choiceOf(question);
  if (!c) return undefined;
  const [a, b] = c.options.map((o) => documentNamed(o, passages));
  if (!a || !b || a.p.doc_id === b.p.doc_id) return undefined;
  const rule = c.by === 'date' ? undefined : valueRule(c);
  const picked = c.by === 'date' ? byDate(c, a, b, passages) : rule && byValue(a, b, rule.value, rule.larger);
  if (!picked) return undefined;
  const { win, citations } = picked;
  const at = win.p.text.indexOf(win.title);
  return at < 0 ? undefined : { text: win.p.text.slice(at, at + win.title.length), citations };
}

/**
 * What a choice not by date compares of each option's passage, and whether the larger wins: how much
 * of the head's words it holds ("which company is based in Kentucky"), the count it gives of the
 * noun asked ("more acts"), or the height, area or population it states ("taller").
 */
function valueRule(c: Choice): { value: (o: Compared<ListedPassage>) => number | undefined; larger: boolean } | undefined {
  const { counted, measured } = c;
  if (c.by === 'words') return { value: (o) => headScore(c.head, o.p.text), larger: true };
  if (counted) return { value: (o) => countOf(o.p.text, counted.stem), larger: counted.more };
  if (measured) return { value: (o) => measureIn(o.p.text.slice(titled(o.p).body), measured.measure), larger: measured.larger };
  return undefined;
}

/** The option whose value is the larger (the smaller when `larger` is false); none when either is missing or both are equal. */
function byValue<P extends ListedPassage>(
  a: Compared<P>,
  b: Compared<P>,
  value: (o: Compared<P>) => number | undefined,
  larger: boolean,
): { win: Compared<P>; citations: string[] } | undefined {
  const [va, vb] = [a, b].map(value);
  if (va === undefined || vb === undefined || va === vb) return undefined;
  const [win, lose] = va > vb === larger ? [a, b] : [b, a];
  return { win, citations: [win.p.doc_id, lose.p.doc_id] };
}

/** The option whose date (or its related person's) is the earlier or the later, as asked. */
function byDate<P extends ListedPassage>(
  c: Choice,
  a: Compared<P>,
  b: Compared<P>,
  passages: readonly P[],
): { win: Compared<P>; citations: string[] } | undefined {
  const [da, db] = [a, b].map((o) => {
    const evidence = c.relation ? relatedDocument(o.p, c.relation, passages) : o.p;
    const date = evidence && dateOf(c, evidence);
    return evidence && date ? { evidence, date } : undefined;
  });
  if (!da || !db) return undefined;
  const order = compareDates(da.date, db.date);
  if (order === 0) return undefined;
  const [win, lose] = order < 0 === c.earliest ? [a, b] : [b, a];
  const [dw, dl] = win === a ? [da, db] : [db, da];
  return { win, citations: [...new Set([win.p.doc_id, dw.evidence.doc_id, lose.p.doc_id, dl.evidence.doc_id])] };
}
