// How numbers, sizes and times read in the console. Pure.

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? word : words}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
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
