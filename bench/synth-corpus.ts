// Synthetic corpora of any size from the wiki-pool: first the gold documents of the evaluated
// queries, then the rest of the pool, then perturbed copies of pool paragraphs until `size`
// documents. A copy keeps its paragraph's shape (length, sentence structure, common words) but gets
// new entities: each distinct capitalised word is, with probability 0.6, replaced everywhere in the
// copy (title line included) by a capitalised word drawn from the pool's own frequency; 15% of other
// words of 4+ letters are replaced likewise; numbers are re-drawn with as many digits. Invariants:
// deterministic (the same size and priority list give the same documents in the same order);
// ids are unique (`syn<copy>:<pool id>`); every document is "Title\nparagraph" with
// metadata.title equal to its first line, like the pool; documents are generated lazily in batches.
import type { Doc } from './bench-util.js';

/** xorshift32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

export function hashString(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const WORD = /[\p{L}\p{N}]+/gu;
const isCap = (w: string) => w[0] !== w[0].toLowerCase();
const isNum = (w: string) => /^\p{N}+$/u.test(w);

export class SynthCorpus {
  private readonly caps: string[] = [];
  private readonly words: string[] = [];

  /** `pool`: the wiki-pool documents; `priority`: ids that must come first (gold documents). */
  constructor(
    private readonly pool: Doc[],
    private readonly priority: string[] = [],
  ) {
    // Frequency-weighted vocabularies from a fixed sample of the pool (every 4th document).
    for (let i = 0; i < pool.length; i += 4) {
      for (const w of pool[i].text.match(WORD) ?? []) {
        if (isNum(w)) continue;
        if (isCap(w)) this.caps.push(w);
        else if (w.length >= 4) this.words.push(w);
      }
    }
  }

  /** The pool in corpus order: priority documents first, then the others in file order. */
  private order(): Doc[] {
    const byId = new Map(this.pool.map((d) => [d.id, d]));
    const first = [...new Set(this.priority)].map((id) => byId.get(id)).filter((d): d is Doc => d !== undefined);
    const seen = new Set(first.map((d) => d.id));
    return [...first, ...this.pool.filter((d) => !seen.has(d.id))];
  }

  /** A perturbed copy (copy >= 1) of a pool document. */
  perturb(d: Doc, copy: number): Doc {
    const r = rng(hashString(d.id, copy * 0x9e3779b1));
    const capMap = new Map<string, string>();
    const text = d.text.replace(WORD, (w) => {
      if (isNum(w)) return r() < 0.5 ? String(Math.floor(10 ** (w.length - 1) + r() * 9 * 10 ** (w.length - 1))) : w;
      if (isCap(w)) {
        let m = capMap.get(w);
        if (m === undefined) {
          m = r() < 0.6 ? this.caps[Math.floor(r() * this.caps.length)] : w;
          capMap.set(w, m);
        }
        return m;
      }
      return w.length >= 4 && r() < 0.15 ? this.words[Math.floor(r() * this.words.length)] : w;
    });
    const nl = text.indexOf('\n');
    const title = nl > 0 ? text.slice(0, nl) : text.slice(0, 80);
    return { id: `syn${copy}:${d.id}`, text, metadata: { title, source: 'synthetic' } };
  }

  /** The first `size` documents, `batch` at a time. */
  *batches(size: number, batch = 1000): Generator<Doc[]> {
    const base = this.order();
    let out: Doc[] = [];
    for (let i = 0; i < size; i++) {
      const copy = Math.floor(i / base.length);
      const d = base[i % base.length];
      out.push(copy === 0 ? d : this.perturb(d, copy));
      if (out.length === batch) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }
}
