// The Porter (1980) stemmer as in Martin Porter's reference C implementation (step 2 maps
// 'bli'->'ble' and 'logi'->'log'). Input: one lowercase token; words of length <= 2, all-digit
// tokens and tokens with characters outside [a-z0-9] are returned unchanged (digits count as
// consonants, as in the reference). Pure and deterministic: the tokenizer caches its results.

function cons(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 || !cons(w, i - 1);
  return true;
}

/** Number of VC sequences in w[0, n). */
function measure(w: string, n: number): number {
  let i = 0;
  while (i < n && cons(w, i)) i++;
  let m = 0;
  while (i < n) {
    while (i < n && !cons(w, i)) i++;
    if (i >= n) break;
    while (i < n && cons(w, i)) i++;
    m++;
  }
  return m;
}

function vowelIn(w: string, n: number): boolean {
  for (let i = 0; i < n; i++) if (!cons(w, i)) return true;
  return false;
}

function doubleC(w: string, n: number): boolean {
  return n >= 2 && w[n - 1] === w[n - 2] && cons(w, n - 1);
}

function cvc(w: string, n: number): boolean {
  if (n < 3 || !cons(w, n - 1) || cons(w, n - 2) || !cons(w, n - 3)) return false;
  const c = w[n - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) m.set(key(it), [...(m.get(key(it)) ?? []), it]);
  return m;
}

const STEP2 = groupBy(
  [
    ['ational', 'ate'],
    ['tional', 'tion'],
    ['enci', 'ence'],
    ['anci', 'ance'],
    ['izer', 'ize'],
    ['bli', 'ble'],
    ['alli', 'al'],
    ['entli', 'ent'],
    ['eli', 'e'],
    ['ousli', 'ous'],
    ['ization', 'ize'],
    ['ation', 'ate'],
    ['ator', 'ate'],
    ['alism', 'al'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
    ['aliti', 'al'],
    ['iviti', 'ive'],
    ['biliti', 'ble'],
    ['logi', 'log'],
  ] as Array<[string, string]>,
  ([s]) => s[s.length - 2],
);
const STEP3 = groupBy(
  [
    ['icate', 'ic'],
    ['ative', ''],
    ['alize', 'al'],
    ['iciti', 'ic'],
    ['ical', 'ic'],
    ['ful', ''],
    ['ness', ''],
  ] as Array<[string, string]>,
  ([s]) => s[s.length - 1],
);
const STEP4 = groupBy(
  ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'],
  (s) => s[s.length - 2],
);

/** Replaces the first listed suffix that `w` ends with (only that one is considered) when the stem's measure allows. */
function replaceSuffix(w: string, rules: Array<[string, string]> | undefined, minMeasure: number): string {
  for (const [s, r] of rules ?? []) {
    if (w.endsWith(s)) {
      const n = w.length - s.length;
      return measure(w, n) > minMeasure ? w.slice(0, n) + r : w;
    }
  }
  return w;
}

export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z0-9]+$/.test(word) || /^[0-9]+$/.test(word)) return word;
  let w = word;
  // step 1a
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // step 1b
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else {
    let n = -1;
    if (w.endsWith('ed') && vowelIn(w, w.length - 2)) n = w.length - 2;
    else if (w.endsWith('ing') && vowelIn(w, w.length - 3)) n = w.length - 3;
    if (n >= 0) {
      w = w.slice(0, n);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (doubleC(w, w.length)) {
        const c = w[w.length - 1];
        if (c !== 'l' && c !== 's' && c !== 'z') w = w.slice(0, -1);
      } else if (measure(w, w.length) === 1 && cvc(w, w.length)) w += 'e';
    }
  }
  // step 1c
  if (w.endsWith('y') && vowelIn(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  // steps 2 and 3
  if (w.length >= 2) w = replaceSuffix(w, STEP2.get(w[w.length - 2]), 0);
  w = replaceSuffix(w, STEP3.get(w[w.length - 1]), 0);
  // step 4
  if (w.length >= 2) {
    for (const s of STEP4.get(w[w.length - 2]) ?? []) {
      if (!w.endsWith(s)) continue;
      const n = w.length - s.length;
      if (s === 'ion' && !(n > 0 && (w[n - 1] === 's' || w[n - 1] === 't'))) continue;
      if (measure(w, n) > 1) w = w.slice(0, n);
      break;
    }
  }
  // step 5a
  if (w.endsWith('e')) {
    const n = w.length - 1;
    const a = measure(w, n);
    if (a > 1 || (a === 1 && !cvc(w, n))) w = w.slice(0, n);
  }
  // step 5b
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}
