// The in-process JavaScript peers. Each one indexes the units (title and body as two fields) with its
// documented defaults plus the obvious tuning a user would apply after reading its docs: English
// stemming, stop words dropped, the title field boosted 2x, any-term (OR) matching.
// - @orama/orama 3: create({ schema: { title, body }, components.tokenizer: { stemming: true
//   (its built-in English stemmer), stopWords } }); insertMultiple; search({ term, properties,
//   boost: { title: 2 }, limit: k }) with the default BM25 relevance and threshold (any term).
// - minisearch 7: fields title and body, default tokenizer; processTerm lower-cases, drops stop
//   words and Porter-stems (minisearch ships no stemmer: the stemmer is the Porter (1980) algorithm,
//   here the one in src/engine/porter.ts); searchOptions { boost: { title: 2 }, combineWith: 'OR'
//   (the default) }, no prefix or fuzzy matching (defaults). addAll; search.
// Invariants: a peer returns at most k units, best first, mapped to their source document.
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { porterStem } from '../src/engine/text/index.js';
import type { Doc } from './bench-util.js';
import type { BenchSystem, SearchAnswer } from './peer-svc.js';
import { STOP_WORDS, type Unit } from './peer-text.js';

const STOP = new Set(STOP_WORDS);

/** Peers index units (documents or paragraphs); `ingest` takes the units through `unitsOf`. */
abstract class UnitSystem implements BenchSystem {
  protected byId = new Map<string, Unit>();
  constructor(protected readonly unitsOf: (docs: Doc[]) => Unit[]) {}

  async ingest(docs: Doc[]): Promise<void> {
    const units = this.unitsOf(docs);
    for (const u of units) this.byId.set(u.id, u);
    await this.add(units);
  }

  protected abstract add(units: Unit[]): Promise<void>;
  protected abstract ids(query: string, k: number): Promise<string[]> | string[];

  async search(query: string, k: number): Promise<SearchAnswer> {
    const t0 = performance.now();
    const ids = await this.ids(query, k);
    const engineMs = performance.now() - t0;
    return { engineMs, hits: ids.map((id) => this.byId.get(id)!).map((u) => ({ docId: u.docId, text: u.body })) };
  }

  stats(): Record<string, number> {
    return { units: this.byId.size };
  }

  async close(): Promise<void> {}
}

export class OramaSystem extends UnitSystem {
  private db = create({
    schema: { title: 'string', body: 'string' } as const,
    components: { tokenizer: { stemming: true, stopWords: STOP_WORDS } },
  });

  protected async add(units: Unit[]): Promise<void> {
    await insertMultiple(
      this.db,
      units.map((u) => ({ id: u.id, title: u.title, body: u.body })),
    );
  }

  protected async ids(query: string, k: number): Promise<string[]> {
    const r = await oramaSearch(this.db, { term: query, properties: ['title', 'body'], boost: { title: 2 }, limit: k });
    return r.hits.map((h) => String(h.id));
  }
}

function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  return STOP.has(t) ? null : porterStem(t);
}

export class MiniSearchSystem extends UnitSystem {
  private ms = new MiniSearch<Unit>({
    fields: ['title', 'body'],
    idField: 'id',
    processTerm,
    searchOptions: { boost: { title: 2 }, combineWith: 'OR' },
  });

  protected async add(units: Unit[]): Promise<void> {
    this.ms.addAll(units);
  }

  protected ids(query: string, k: number): string[] {
    return this.ms
      .search(query)
      .slice(0, k)
      .map((r) => String(r.id));
  }
}
