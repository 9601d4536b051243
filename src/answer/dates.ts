// The dates a text states, for the answers that compare two documents by when something happened
// (choice.ts, life-events.ts). Invariants: a date is a year from 1000 to 2099, with its month and day when the
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

/** A person's dates: the first date of the text is the birth; the death is the date a dash or "died" leads to next. */
export function lifeDates(text: string): { born?: TextDate; died?: TextDate } {
  const ds = datesOf(text);
  if (ds.length === 0) return {};
  const born = ds[0];
  for (const d of ds.slice(1)) {
    const between = text.slice(born.end, d.start);
    if (between.length <= 40 && /[-–—]|\bto\b/.test(between) && !/[)]/.test(between)) return { born, died: d };
  }
  const died = /\b(died|death)\b/i.exec(text);
  const after = died ? ds.find((d) => d.start > died.index && d.start - died.index <= 60) : undefined;
  return { born, died: after };
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
