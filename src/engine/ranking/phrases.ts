// Title phrases at search time: which document titles a term sequence mentions (the question, or a
// passage being read), and how often a title phrase is mentioned across the store. A title is
// identified by its title key (the phrase key of its full title); a mention is the longest window of
// the sequence equal to that title or to its base title (without a trailing parenthetical).

import { FEATURE_TEXT } from '../params.js';
import { FLAG_CAPITALISED, PHRASE_SEED, phraseExtend, phraseFinal, phraseKey } from '../text/index.js';
import type { SearchCorpus } from './corpus.js';
import type { TitleHit } from './types.js';

/**
 * Titles mentioned in seq[skip:] that a row the search may return bears (live, not filtered out),
 * longest mention per title; `exclude` (a title key) is skipped. Titles one window names may share
 * one hit object: hits are read-only. A window that is the base title of more than
 * FEATURE_TEXT.maxBaseTitles titles ("Madonna" of "Madonna (1980 film)", "Madonna (band)", ...)
 * names only the title it is whole: it does not say which of the others it means.
 * At each start the window grows while some title of the store starts with it.
 */
export function titleHits(
  c: SearchCorpus,
  seq: Uint32Array,
  flags: Uint8Array | undefined,
  skip: number,
  exclude = 0,
): Map<number, TitleHit> {
  const out = new Map<number, TitleHit>();
  for (let i = skip; i < seq.length; i++) {
    let h = PHRASE_SEED;
    for (let j = i; j < Math.min(seq.length, i + FEATURE_TEXT.maxPhrase); j++) {
      h = phraseExtend(h, seq[j]);
      const key = phraseFinal(h);
      if (!c.titles.hasPrefix(key)) break;
      const named = c.titles.named(key);
      const rows = named.all.length - named.full.length > FEATURE_TEXT.maxBaseTitles ? named.full : named.all;
      if (rows.length === 0) continue;
      const len = j - i + 1;
      let caps = 0;
      if (flags) for (let k = i; k <= j; k++) caps += flags[k] & FLAG_CAPITALISED ? 1 : 0;
      // one copy of the window, and one hit per kind, for every title it first names (a base
      // title may be up to FEATURE_TEXT.maxBaseTitles titles')
      const capfrac = flags ? caps / len : 0;
      let terms: Uint32Array | undefined;
      const hit = (full: boolean, pos: number): TitleHit => {
        terms ??= seq.slice(i, j + 1);
        return { len, capfrac, pos, full, key, terms };
      };
      const first: Array<TitleHit | undefined> = [undefined, undefined];
      for (const { titleKey, full } of rows) {
        if (titleKey === exclude || !c.titles.hasRow(titleKey)) continue;
        const old = out.get(titleKey);
        if (old && old.len >= len) continue;
        if (old) out.set(titleKey, hit(full, old.pos));
        else {
          first[+full] ??= hit(full, i - skip);
          out.set(titleKey, first[+full] as TitleHit);
        }
      }
    }
  }
  return out;
}

/** Whether `seq[skip:]` contains `phrase` as a window. */
export function containsPhrase(seq: Uint32Array, skip: number, phrase: Uint32Array): boolean {
  const n = phrase.length;
  if (n === 0) return false;
  outer: for (let i = skip; i + n <= seq.length; i++) {
    for (let k = 0; k < n; k++) if (seq[i + k] !== phrase[k]) continue outer;
    return true;
  }
  return false;
}

/**
 * Whether `seq` opens at `at` with `phrase`: its first term there, each next one within
 * FEATURE_TEXT.nameGap words of the one before ("David Yuryevich Dzakhov" for "David Dzakhov"), the
 * first and last of them capitalised. How a passage about a name begins, with or without a title line.
 */
export function opensWith(seq: Uint32Array, flags: Uint8Array, at: number, phrase: Uint32Array): boolean {
  const n = phrase.length;
  if (n === 0 || at >= seq.length || seq[at] !== phrase[0] || !(flags[at] & FLAG_CAPITALISED)) return false;
  let i = at;
  for (let k = 1; k < n; k++) {
    const end = Math.min(seq.length, i + 2 + FEATURE_TEXT.nameGap);
    let next = -1;
    for (let j = i + 1; j < end; j++) {
      if (seq[j] === phrase[k]) {
        next = j;
        break;
      }
    }
    if (next < 0) return false;
    i = next;
  }
  return (flags[i] & FLAG_CAPITALISED) !== 0;
}

/**
 * How many passages mention a phrase in their body (after their title line): exact when the
 * phrase's rarest term is rare enough to check every passage holding it, otherwise that term's
 * document frequency (an upper bound of the same order).
 */
export function phraseMentions(c: SearchCorpus, terms: Uint32Array, cache: Map<number, number>): number {
  const key = phraseKey(terms);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let rarest = terms[0];
  for (const t of terms) if (c.df(t) < c.df(rarest)) rarest = t;
  let n: number;
  if (c.df(rarest) > FEATURE_TEXT.exactMentions) n = c.df(rarest);
  else {
    n = 0;
    for (const row of c.rowsWithTerm(rarest)) {
      const { terms: seq } = c.seq(row);
      if (containsPhrase(seq, c.titleLineLength(row), terms)) n++;
    }
  }
  cache.set(key, n);
  return n;
}

/** Title keys of the `k` best mentions: longest first, then full titles, then earliest, then by key. */
export function bestMentions(hits: Map<number, TitleHit>, k: number): number[] {
  if (hits.size <= k) return [...hits.keys()];
  // a sorted list of the best k so far: a passage can name hundreds of titles, most not kept
  const before = ([ka, a]: [number, TitleHit], [kb, b]: [number, TitleHit]) =>
    b.len - a.len || +b.full - +a.full || a.pos - b.pos || ka - kb;
  const best: Array<[number, TitleHit]> = [];
  for (const e of hits) {
    if (best.length === k && before(e, best[k - 1]) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(best[mid], e) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, e);
    if (best.length > k) best.pop();
  }
  return best.map(([key]) => key);
}
