// A range of a stored text read from its UTF-8 bytes (src/store/text-ranges.ts) is exactly the
// JavaScript slice of the whole text, for any text (ASCII, two-, three- and four-byte characters,
// lone surrogates stored as U+FFFD) and any range, across marks; and over HTTP the passages of a
// document of several megabytes are its text's slices at their offsets, through upserts and a
// delete of it (the store keeps a large text's bytes between searches).
import fc from 'fast-check';
import t from 'tap';
import { MARK_UNITS, sliceUtf8, utf8Marks } from '../src/store/index.js';
import { startTestServer } from './helpers/server.js';

/** What a store gives back for a text: its UTF-8 bytes (a lone surrogate becomes U+FFFD). */
const stored = (s: string) => Buffer.from(s, 'utf8');

t.test('sliceUtf8 equals slicing the decoded text', async (t) => {
  const char = fc.oneof(
    fc.constantFrom('a', ' ', '\n', 'é', 'ß', '中', '€', '😀', '𝄞', '\uD800', '\uDC00'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
  );
  fc.assert(
    fc.property(fc.array(char, { maxLength: 400 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 64 }), (chars, a, b, step) => {
      const bytes = stored(chars.join(''));
      const text = bytes.toString('utf8');
      const marks = utf8Marks(bytes);
      for (let i = 2; i < marks.length; i += 2) if (marks[i] < marks[i - 2]) return false;
      const start = a % (text.length + 2);
      const end = start + (b % (step * 8));
      return sliceUtf8(bytes, start, end, marks) === text.slice(start, end);
    }),
    { numRuns: 3000 },
  );
  // texts long enough to carry many marks, ranges straddling them
  const long = stored(Array.from({ length: 3 * MARK_UNITS }, (_, i) => (i % 7 === 0 ? '😀' : i % 5 === 0 ? 'é' : 'x')).join(''));
  const text = long.toString('utf8');
  const marks = utf8Marks(long);
  t.ok(marks.length / 2 >= 4, 'several marks');
  for (let k = 1; k < marks.length / 2; k++) {
    const at = marks[2 * k];
    t.equal(long.toString('utf8', 0, marks[2 * k + 1]).length, at, `mark ${k} is at its offset`);
    for (const [s, e] of [
      [at - 3, at + 3],
      [at - 1, at],
      [at, at + 1200],
      [at + 1, at + 2],
    ]) {
      if (sliceUtf8(long, s, e, marks) !== text.slice(s, e)) t.fail(`range ${s}-${e}`);
    }
  }
  t.equal(sliceUtf8(long, text.length - 5, text.length + 10, marks), text.slice(-5), 'past the end');
});

t.test('a large document: its passages are its text at their offsets', async (t) => {
  const { api } = await startTestServer(t);
  await api.post('/stores', { name: 'book' });
  const chapter = (i: number) =>
    `Chapter ${i}. The lighthouse keeper number ${i} of the Ærø coast wrote ${i * 3} letters — « merci » — to Zoë in Kraków 😀.`;
  const text = `The Book of Keepers\n${Array.from({ length: 3000 }, (_, i) => chapter(i)).join('\n\n')}`;
  t.ok(Buffer.byteLength(text) > 4 * 65536, 'a text past the size decoded whole');
  await api.post('/stores/book/documents', { documents: [{ id: 'b', text }] });
  for (const query of ['Which keeper of the Ærø coast wrote 51 letters?', 'lighthouse keeper number 2900 Kraków']) {
    const r = await api.post('/stores/book/search', { query, max_results: 5, return_trace: true });
    t.ok(r.passages.length > 0, query);
    for (const p of r.passages) t.equal(p.text, text.slice(p.start, p.end), `passage ${p.start}-${p.end}`);
  }
  // the store kept the text's bytes from the searches above: a new version of the same byte length must not be read from them
  const edited = text.replaceAll('Zoë', 'Zoé');
  t.equal(Buffer.byteLength(edited), Buffer.byteLength(text), 'the edit keeps the byte length');
  await api.post('/stores/book/documents', { documents: [{ id: 'b', text: edited }] });
  const ask = () => api.post('/stores/book/search', { query: 'Which keeper of the Ærø coast wrote 51 letters to Zoé?', max_results: 5 });
  const again = await ask();
  t.ok(again.passages.length > 0, 'found after the upsert');
  for (const p of again.passages) t.equal(p.text, edited.slice(p.start, p.end), 'after an upsert: the new text');
  await api.delete('/stores/book/documents/b');
  t.same((await ask()).passages, [], 'deleted: nothing listed');
  await api.post('/stores/book/documents', { documents: [{ id: 'b', text }] });
  for (const p of (await ask()).passages) t.equal(p.text, text.slice(p.start, p.end), 'written again: its text');
});
