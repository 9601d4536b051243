// The large texts a store remembers for its searches (src/store/large-texts.ts): a text's bytes are
// read from the store once while its document keeps its seq, read again after a write, and the
// bounds on entries (MARKED_TEXTS) and kept bytes (KEPT_TEXT_BYTES) drop the least recently read.
import t from 'tap';
import { LargeTexts } from '../src/store/large-texts.js';
import { KEPT_TEXT_BYTES, MARKED_TEXTS, sliceUtf8, WHOLE_TEXT_BYTES } from '../src/store/text-ranges.js';

/** A store of one version per document: `seq` and the bytes, with how often each was read. */
function store() {
  const docs = new Map<string, { seq: number; bytes: Buffer }>();
  const reads = new Map<string, number>();
  return {
    put: (id: string, seq: number, text: string) => docs.set(id, { seq, bytes: Buffer.from(text) }),
    reads: (id: string) => reads.get(id) ?? 0,
    read: (cache: LargeTexts, id: string) =>
      cache.read(
        id,
        () => docs.get(id)?.seq,
        () => {
          reads.set(id, (reads.get(id) ?? 0) + 1);
          return docs.get(id)?.bytes;
        },
      ),
  };
}

const large = (fill: string, bytes = WHOLE_TEXT_BYTES + 1) => 'é'.repeat(8) + fill.repeat(bytes - 16);

t.test('a small text is decoded whole and not remembered; a missing one is undefined', async (t) => {
  const s = store();
  const cache = new LargeTexts();
  s.put('small', 1, 'Title\nshort text');
  t.same(s.read(cache, 'small'), { text: 'Title\nshort text' });
  t.same(s.read(cache, 'small'), { text: 'Title\nshort text' });
  t.equal(s.reads('small'), 2, 'read from the store each time');
  t.equal(s.read(cache, 'none'), undefined);
});

t.test("a large text's bytes are kept while its document keeps its seq", async (t) => {
  const s = store();
  const cache = new LargeTexts();
  const text = large('a');
  s.put('book', 1, text);
  const first = s.read(cache, 'book');
  t.ok(first && 'marks' in first, 'read by its marks');
  if (!first || !('marks' in first)) return;
  t.equal(sliceUtf8(first.bytes, 3, 20, first.marks), text.slice(3, 20));
  s.read(cache, 'book');
  t.equal(s.reads('book'), 1, 'the second read comes from the kept bytes');
  const next = large('b');
  s.put('book', 2, next);
  const second = s.read(cache, 'book');
  t.equal(s.reads('book'), 2, 'a write (a new seq) reads it again, of the same byte length');
  if (!second || !('marks' in second)) return t.fail('read by its marks');
  t.equal(sliceUtf8(second.bytes, 100, 140, second.marks), next.slice(100, 140), 'the new version');
});

t.test('at most MARKED_TEXTS texts and KEPT_TEXT_BYTES of bytes are kept, the least recently read dropped first', async (t) => {
  const s = store();
  const cache = new LargeTexts();
  for (let i = 0; i <= MARKED_TEXTS; i++) s.put(`d${i}`, 1, large('x'));
  for (let i = 0; i <= MARKED_TEXTS; i++) s.read(cache, `d${i}`);
  s.read(cache, `d${MARKED_TEXTS}`);
  s.read(cache, 'd1');
  t.equal(s.reads('d1'), 1, 'a text within the bound is still kept');
  s.read(cache, 'd0');
  t.equal(s.reads('d0'), 2, 'the oldest of MARKED_TEXTS + 1 was dropped');

  const big = new LargeTexts();
  const third = Math.floor(KEPT_TEXT_BYTES / 3) + 1;
  for (const id of ['a', 'b', 'c']) s.put(id, 1, large('y', third));
  for (const id of ['a', 'b', 'c']) s.read(big, id);
  s.read(big, 'c');
  s.read(big, 'b');
  t.same([s.reads('b'), s.reads('c')], [1, 1], 'the two read last are kept');
  s.read(big, 'a');
  t.equal(s.reads('a'), 2, 'three thirds and more exceed KEPT_TEXT_BYTES: the first one read lost its bytes');
});
