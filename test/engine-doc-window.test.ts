// The whole-document features' reads on the real segment layout: a document's rows found once,
// term counts over a range of rows from the postings equal to counting the passages' terms, summed
// body lengths equal to the passages' lengths, and the window a very long document is read through
// (FEATURE_TEXT.docWindow passages on a grid, always holding the row, never leaving the document);
// the loop's unit of evidence (docOf): the document, or each passage of a document longer than that.
import t from 'tap';
import { FEATURE_TEXT } from '../src/engine/params.js';
import { openShippedStore } from './helpers/shipped-store.js';

const sentence = (i: number) => `Sentence ${i} tells of river ${i % 5} and the ${['mill', 'bridge', 'farm'][i % 3]} beside it.`;
const longText = `A long book\n${Array.from({ length: 12000 }, (_, i) => sentence(i)).join(' ')}`;
const store = await openShippedStore([
  { id: 'short', text: 'Lisbon\nLisbon lies where the Tagus meets the sea. The Tagus is a long river.' },
  { id: 'book', text: longText },
  { id: 'after', text: 'Porto\nPorto lies on the Douro river.' },
]);
t.teardown(() => store.close());

t.test('term counts and lengths over rows, from the postings, equal the passages', async (t) => {
  const c = store.corpus();
  const book = store.rowsOf('book');
  t.ok(book.length > FEATURE_TEXT.docWindow, `the book is ${book.length} passages`);
  const terms = [...new Set(c.seq(book[3]).terms)].slice(0, 12);
  for (const [first, count] of [
    [book[0], book.length],
    [book[10], 37],
    [store.rowsOf('short')[0], 1],
  ]) {
    let len = 0;
    const ref = new Map<number, number>();
    for (let r = first; r < first + count; r++) {
      const seq = c.seq(r).terms;
      len += seq.length;
      for (const x of seq) ref.set(x, (ref.get(x) ?? 0) + 1);
    }
    t.equal(c.bodyLength(first, count), len, `length of rows ${first}+${count}`);
    for (const term of terms) t.equal(c.termCount(term, first, count), ref.get(term) ?? 0);
  }
});

t.test("a document's rows, and the window a long one is read through", async (t) => {
  const c = store.corpus();
  const book = store.rowsOf('book');
  const [first, count] = [book[0], book.length];
  for (const row of [book[0], book[1], book[200], book.at(-1)!]) t.same(c.docRows(row), [first, count]);
  const w = FEATURE_TEXT.docWindow;
  const starts = new Set<number>();
  for (const row of book) {
    const [start, n] = c.docWindow(row);
    if (n !== w || row < start || row >= start + n || start < first || start + n > first + count)
      t.fail(`row ${row}: window ${start}+${n}`);
    starts.add(start);
  }
  t.ok(starts.size <= Math.ceil((2 * count) / w), `${starts.size} windows for ${count} passages: rows share them`);
  const short = store.rowsOf('short');
  t.same(c.docWindow(short[0]), [short[0], short.length], 'a short document is read whole');
});

t.test("the loop's unit of evidence: a document, or each passage of a very long one", async (t) => {
  const c = store.corpus();
  const book = store.rowsOf('book');
  const keys = new Set(book.map((r) => c.docOf(r)));
  t.equal(keys.size, book.length, 'each passage of the book is a unit of its own');
  const short = store.rowsOf('short');
  const after = store.rowsOf('after');
  t.equal(new Set(short.map((r) => c.docOf(r))).size, 1, "a short document's passages are one unit");
  t.notOk(keys.has(c.docOf(short[0])) || keys.has(c.docOf(after[0])), "no passage of the book shares a document's key");
  t.not(c.docOf(short[0]), c.docOf(after[0]), 'two documents, two units');
  t.same(c.docRows(book[5]), [book[0], book.length], 'the whole-document reads still see the whole book');
});
