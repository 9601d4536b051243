// The dates a text states, for the answers that compare two documents by when something happened
// (choice.ts) and the answers of when a person was born or died (life-events.ts), read one way for
// both (lifeDates). Invariants: a date is a year from 1000 to 2099, with its month and day when the
// text gives them ("23 April 1894", "April 23, 1894", "April 1894"); dates are listed in text order
// by where they start; a day-less or month-less date compares equal to any date of its year (and
// month), so two dates are ordered only when what both state differs.

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const YEAR = '(1\\d{3}|20\\d{2})(?!\\d)';
const DATE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(\\d{1,2})\\s+${MONTH}\\s*,?\\s+${YEAR}|${MONTH}\\s+(\\d{1,2})\\s*,\\s*${YEAR}|${MONTH}\\s+${YEAR}|${YEAR})`,
  'giu',
);

export interface TextDate {
  year: number;
  /** 1 to 12, 0 when the text gives none */
  month: number;
  /** 1 to 31, 0 when the text gives none */
  day: number;
  /** where the date starts and ends in the text */
  start: number;
  end: number;
}

const monthOf = (m: string) => MONTHS.findIndex((x) => x.startsWith(m.toLowerCase().replace('.', '').slice(0, 3))) + 1;

/** Every date of `text`, in text order. */
export function datesOf(text: string): TextDate[] {
  const out: TextDate[] = [];
  for (const m of text.matchAll(DATE)) {
    const at = { start: m.index, end: m.index + m[0].length };
    if (m[3]) out.push({ year: +m[3], month: monthOf(m[2]), day: +m[1], ...at });
    else if (m[6]) out.push({ year: +m[6], month: monthOf(m[4]), day: +m[5], ...at });
    else if (m[8]) out.push({ year: +m[8], month: monthOf(m[7]), day: 0, ...at });
    else out.push({ year: +m[9], month: 0, day: 0, ...at });
  }
  return out.filter((d) => d.day <= 31);
}

/** -1 when a is before b, 1 when after, 0 when what both state is the same. */
export function compareDates(a: TextDate, b: TextDate): number {
  if (a.year !== b.year) return a.year < b.year ? -1 : 1;
  if (!a.month || !b.month || a.month === b.month) {
    if (!a.month || !b.month || !a.day || !b.day || a.day === b.day) return 0;
    return a.day < b.day ? -1 : 1;
  }
  return a.month < b.month ? -1 : 1;
}

/** Where a bracket lies in a text: from its "(" to its ")". */
export interface Bracket {
  start: number;
  end: number;
}

/** The bracket after a person's name that holds their dates ("(4 May 1911 – 2 June 1988)", "(born 1950)"): the first opening within 300 characters of `from`, when it holds a date. */
export function lifeBracket(text: string, from = 0): Bracket | undefined {
  const open = text.indexOf('(', from);
  if (open < 0 || open - from > 300) return undefined;
  const close = text.indexOf(')', open);
  if (close < 0) return undefined;
  return datesOf(text.slice(open, close)).length ? { start: open, end: close } : undefined;
}

/**
 * A person's birth and death as their text states them. In the bracket after their name (the first
 * from `from`, where the text after a title line starts): its first date is the birth unless "died"
 * or "d." leads to it, and the date a dash leads to from it, or else the one "died" leads to, the
 * death. Failing the bracket, the first date within 60 characters after "born" / "died". `loose`
 * (the comparisons, which need a date of each option): failing those too, the text's first date
 * other than the death is the birth, and the death the date a dash (or "to") leads to from it
 * within 40 characters, or else the first within 60 characters after "death".
 */
export function lifeDates(text: string, o: { from?: number; loose?: boolean } = {}): { born?: TextDate; died?: TextDate } {
  const ds = datesOf(text);
  const after = (cue: RegExp, not?: TextDate) => {
    const m = cue.exec(text);
    return m ? ds.find((d) => d !== not && d.start > m.index && d.start - m.index <= 60) : undefined;
  };
  let born: TextDate | undefined;
  let died: TextDate | undefined;
  const bracket = lifeBracket(text, o.from);
  if (bracket) {
    const inside = ds.filter((d) => d.start > bracket.start && d.end <= bracket.end);
    if (inside.length > 0 && !/\b(died|d\.)\s*$/.test(text.slice(bracket.start, inside[0].start))) born = inside[0];
    if (inside.length >= 2 && /[-–—]/.test(text.slice(inside[0].end, inside[1].start))) died = inside[1];
    else {
      const m = /\b(died|d\.)\s/.exec(text.slice(bracket.start, bracket.end));
      if (m) died = inside.find((d) => d.start > bracket.start + m.index);
    }
  }
  born ??= after(/\bborn\b/i);
  died ??= after(/\bdied\b/i);
  if (o.loose) {
    born ??= ds.find((d) => d !== died);
    const first = born;
    if (first)
      died ??= ds.find((d) => {
        const between = text.slice(first.end, d.start);
        return d.start > first.end && between.length <= 40 && /[-–—]|\bto\b/.test(between) && !/[)]/.test(between);
      });
    died ??= after(/\b(died|death)\b/i, born);
  }
  return { born, died };
}

/** The date an event of the text has: the first within 60 characters after one of `cues`, else the text's first date. */
export function eventDate(text: string, cues: RegExp): TextDate | undefined {
  const ds = datesOf(text);
  for (const m of text.matchAll(cues)) {
    const d = ds.find((x) => x.start > m.index && x.start - m.index <= 60);
    if (d) return d;
  }
  return ds[0];
}
