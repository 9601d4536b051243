// The loop stops after hop 1 when hop 1's first STAGES.oneDocument passages lie in one long
// document (ranking/stages.ts heldByOneDocument): whatever the sufficiency models say, a question
// about one article is not chained into others; a store of short documents, or a book read by its
// sections, chains as before.
import fs from 'node:fs';
import t from 'tap';
import type { ConfParams, LoopParams } from '../src/engine/index.js';
import { RESULT_LIST, STAGES } from '../src/engine/params.js';
import type { SearchCorpus } from '../src/engine/ranking/index.js';
import { heldByOneDocument, returnedConfidence } from '../src/engine/ranking/index.js';
import { DEVOTION, openShippedStore } from './helpers/shipped-store.js';

/** A corpus stub: unit d holds `sizes[d]` rows, numbered in order; the units in `sections` are sections of one larger document. */
function corpusOf(sizes: number[], sections: number[] = []): SearchCorpus {
  const doc = sizes.flatMap((n, d) => Array.from({ length: n }, () => d));
  const first = sizes.map((_, d) => doc.indexOf(d));
  return {
    docOf: (r: number) => doc[r],
    documentOf: (r: number) => (sections.includes(doc[r]) ? -1 : doc[r]),
    docRows: (r: number) => [first[doc[r]], sizes[doc[r]]],
  } as unknown as SearchCorpus;
}

t.test('hop 1 held by one long document', async (t) => {
  t.equal(STAGES.oneDocument, 2, 'the first two passages are read');
  const c = corpusOf([RESULT_LIST.longDoc, 1, 1, RESULT_LIST.longDoc - 1]);
  const L = RESULT_LIST.longDoc;
  t.ok(heldByOneDocument(c, [2, 0, L, L + 1]), 'two passages of the long document first: held, in any order');
  t.notOk(heldByOneDocument(c, [0, L, 1]), 'a short document second: not held');
  t.notOk(heldByOneDocument(c, [L + 2, L + 3, 0]), 'two passages of a document shorter than RESULT_LIST.longDoc: not held');
  t.notOk(heldByOneDocument(c, [0]), 'one passage only: not held');
  const sectioned = corpusOf([L, 1, L], [0, 2]);
  t.notOk(heldByOneDocument(sectioned, [0, 2, L + 1]), 'a long section of a larger document (a book read by its sections): not held');
  t.notOk(heldByOneDocument(c, []), 'nothing found: not held');
});

const OIL = 'When did the 1973 oil crisis begin?';

/** The stage models with their bias moved far down: "never sufficient", so the loop runs every hop it may. */
const never = (conf: ConfParams[]) => conf.map((c) => ({ ...c, b: c.b - 50 }));

t.test('a question about one long article stops at hop 1; a two-hop question over short documents goes on', async (t) => {
  const article = fs
    .readFileSync('../shared/bench/squad-articles-dev/corpus.jsonl', 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; text: string })
    .find((d) => d.id === 'squad-dev:1973_oil_crisis');
  if (!article) throw new Error('squad-articles-dev has no 1973 oil crisis article');
  const store = await openShippedStore([...DEVOTION, { id: 'oil', text: article.text, metadata: {} }]);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  const doubting: LoopParams = { ...shipped, decide: never(shipped.decide ?? shipped.conf) };
  t.ok(store.rowsOf('oil').length >= RESULT_LIST.longDoc, `the article is long (${store.rowsOf('oil').length} passages)`);

  const oil = store.search(OIL, doubting);
  t.same(
    oil.hits.slice(0, 2).map((h) => store.docIdOf(h.row)),
    ['oil', 'oil'],
    "hop 1's first two passages are the article's",
  );
  t.equal(oil.hopsUsed, 1, 'one hop, though the decide models never find enough');
  t.equal(oil.oneDocument, true, 'the output says so');
  const raw = store.search(OIL, { ...doubting, returned: undefined, returnedOneDocument: undefined });
  const own = { a: 1.5, b: -1 };
  t.ok(
    Math.abs(store.search(OIL, { ...doubting, returnedOneDocument: own }).confidence - returnedConfidence(own, raw.confidence)) < 1e-12,
    "its confidence goes through the model's calibration of such searches",
  );
  t.ok(
    Math.abs(
      store.search(OIL, { ...doubting, returnedOneDocument: undefined }).confidence - returnedConfidence(shipped.returned, raw.confidence),
    ) < 1e-12,
    'or, without one, through that of the others',
  );
  t.same(
    oil.hits.map((h) => h.row),
    store.search(OIL, doubting, { maxHops: 1 }).hits.map((h) => h.row),
    "the list is stage 1's",
  );

  const film = store.search('Who is the child of the director of the film Devotion (1929 film)?', doubting);
  t.ok(film.hopsUsed >= 2, `a two-hop question over short documents runs ${film.hopsUsed} hops`);
  t.equal(film.oneDocument, undefined, 'and is not held by one document');
});
