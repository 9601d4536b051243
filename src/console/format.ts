// How numbers, sizes and times read in the console. Pure.

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? word : words}`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A size in bytes, in steps of 1024: one decimal below 10 of a unit, none above. */
export function bytes(n: number): string {
  const i = n < 1024 ? 0 : Math.min(BYTE_UNITS.length - 1, Math.floor(Math.log2(n) / 10));
  const v = n / 1024 ** i;
  return `${v.toLocaleString('en', { maximumFractionDigits: i > 0 && v < 10 ? 1 : 0 })} ${BYTE_UNITS[i]}`;
}

/** An ISO 8601 time as the reader's local date and time (the ISO form stays in a <time> element). */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ms(n: number): string {
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
}

/** A duration: milliseconds under a second, then seconds, then minutes and seconds. */
export function duration(n: number): string {
  if (n < 1000) return ms(n);
  if (n < 60_000) return `${(n / 1000).toFixed(1)} s`;
  return `${Math.floor(n / 60_000)} min ${Math.round((n % 60_000) / 1000)} s`;
}
