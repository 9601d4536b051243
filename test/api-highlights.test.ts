// Highlights over HTTP: each passage's `highlights` are sorted, non-overlapping [start, end) offsets
// into its text that land on whole words; on a hop-1 passage they are the query's words, on a passage
// a later hop found also the words it shares with the passage before it (the bridge entity); offsets
// stay right after characters outside the BMP and in accented and Cyrillic text. The trace's steps
// say what each hop searched with, its time and how many candidates it scored.
import t, { type Test } from 'tap';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'hl' });
await api.post('/stores/hl/documents', {
  documents: [
    { id: 'devotion', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film directed by Guido Brignone.' },
    { id: 'brignone', text: 'Guido Brignone\nGuido Brignone was an Italian director, father of the actress Lilla Brignone.' },
    { id: 'emoji', text: '🎬🎬 Cinéma Lumière 😀 shows the Lumière films on Sundays.' },
    { id: 'ru', text: 'Байкал — самое глубокое озеро на Земле.' },
  ],
});

const words = (p: { text: string; highlights: number[][] }) => p.highlights.map(([a, b]) => p.text.slice(a, b));

function wellFormed(t: Test, p: { text: string; highlights: number[][] }): void {
  let end = -1;
  for (const [a, b] of p.highlights) {
    t.ok(a > end && b > a && b <= p.text.length, `[${a}, ${b}) sorted, apart and inside the text`);
    t.notMatch(p.text.slice(a - 1, a), /[\p{L}\p{N}]/u, 'starts at a word start');
    t.notMatch(p.text.slice(b, b + 1), /[\p{L}\p{N}]/u, 'ends at a word end');
    end = b;
  }
}

t.test('query words at hop 1, the bridge at hop 2', async (t) => {
  const r = await api.post('/stores/hl/search', { query: 'Who is the child of the director of Devotion (1929 film)?' });
  const [first, second] = r.passages;
  t.same(schemas.errors('SearchResult', r), []);
  t.equal(first.doc_id, 'devotion');
  t.same([...new Set(words(first))], ['Devotion', '1929', 'film'], 'the query words the passage holds, every occurrence');
  t.equal(words(first).length, 6);
  t.equal(second.doc_id, 'brignone');
  t.equal(second.hop, 2);
  t.ok(words(second).includes('Guido') && words(second).includes('Brignone'), 'the name carried from the passage read before');
  t.ok(words(second).includes('director'), 'and the query word it holds');
  t.notOk(
    words(second).some((w) => /^(was|an|of|the)$/i.test(w)),
    'no stopword',
  );
  for (const p of r.passages) wellFormed(t, p);
});

t.test('offsets after characters outside the BMP, in accented and Cyrillic text', async (t) => {
  const lum = await api.post('/stores/hl/search', { query: 'lumiere cinema', max_hops: 1 });
  const p = lum.passages.find((x: any) => x.doc_id === 'emoji');
  t.same(words(p), ['Cinéma', 'Lumière', 'Lumière'], 'accent-folded matches, offsets in UTF-16 units after two emoji');
  wellFormed(t, p);
  const ru = await api.post('/stores/hl/search', { query: 'глубокое озеро', max_hops: 1 });
  const q = ru.passages.find((x: any) => x.doc_id === 'ru');
  t.same(words(q), ['глубокое', 'озеро']);
  wellFormed(t, q);
});

t.test("the trace: each hop's query, time and candidates", async (t) => {
  const question = 'Who is the child of the director of Devotion (1929 film)?';
  const r = await api.post('/stores/hl/search', { query: question, return_trace: true });
  t.same(schemas.errors('SearchResult', r), []);
  t.equal(r.trace.length, 2);
  const [one, two] = r.trace;
  t.match(one, { hop: 1, doc_id: 'devotion', query: question });
  t.ok(one.candidates >= 2, `hop 1 scored ${one.candidates} passages`);
  t.match(two, { hop: 2, doc_id: 'brignone' });
  t.equal(two.query, `${question} + 'Guido Brignone'`, 'the question plus the title the hop followed');
  t.ok(two.candidates >= 1, `hop 2 scored ${two.candidates} chains`);
  for (const s of r.trace) t.ok(s.ms >= 0 && s.ms < r.latency_ms + 1, `hop ${s.hop}: ${s.ms} ms within the search's ${r.latency_ms}`);
});
