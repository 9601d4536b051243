// Text in every script over HTTP: one short document per language in one store, each query finds
// its document first (the table: Japanese, Chinese and Thai, written without spaces, among
// them); `n_tokens` counts the words of unspaced scripts; full-width, half-width, ligature and
// decomposed forms match their usual ones; highlights land on the words as written; and a search
// in a language the model was not trained on does not claim certainty.
import t from 'tap';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);

/** id -> [document, query that must find it first]. */
const DOCS: Record<string, [string, string]> = {
  fuji: ['富士山\n富士山は静岡県と山梨県にまたがる活火山である。標高は3776メートルで、日本の最高峰である。', '富士山の標高'],
  wall: ['长城\n长城是中国古代的军事防御工程。长城的修筑历史可以上溯到西周时期，秦统一后连接各国的城墙。', '长城的修筑历史'],
  taipei: ['臺北101\n臺北101是位於臺灣臺北市信義區的摩天大樓，曾經是世界最高的建築物。', '臺北的摩天大樓'],
  bangkok: ['กรุงเทพมหานคร\nกรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย และเป็นเมืองที่มีประชากรมากที่สุดในประเทศ', 'เมืองหลวงของประเทศไทย'],
  seoul: ['서울특별시\n서울특별시는 대한민국의 수도이자 최대 도시이다.', '대한민국의 수도'],
  cairo: ['القاهرة\nالقاهرة هي عاصمة مصر وأكبر مدنها، وتقع على ضفاف نهر النيل.', 'عاصمة مصر'],
  baikal: ['Байкал\nБайкал — самое глубокое озеро на Земле.', 'самое глубокое озеро'],
  etienne: ["Église Saint-Étienne de Toulouse\nL'église Saint-Étienne est la cathédrale catholique de Toulouse.", 'eglise saint etienne'],
  acropolis: ['Ακρόπολη των Αθηνών\nΗ Ακρόπολη των Αθηνών είναι αρχαίος λόφος πάνω από την πόλη, με τον Παρθενώνα.', 'ακροπολη αθηνων'],
  jerusalem: ['ירושלים\nירושלים היא עיר עתיקה בהרי יהודה ובירת ישראל.', 'עיר עתיקה בהרי יהודה'],
  tajmahal: ['ताजमहल\nताजमहल आगरा में यमुना नदी के किनारे स्थित एक मकबरा है।', 'आगरा का मकबरा'],
  angkor: ['អង្គរវត្ត\nអង្គរវត្តជាប្រាសាទដ៏ធំបំផុតនៅប្រទេសកម្ពុជា។', 'ប្រាសាទនៅកម្ពុជា'],
};

await api.post('/stores', { name: 'scripts' });
const ingested = await api.post('/stores/scripts/documents', { documents: Object.entries(DOCS).map(([id, [text]]) => ({ id, text })) });

t.test('every query finds its document first', async (t) => {
  for (const [id, [, query]] of Object.entries(DOCS)) {
    const r = await api.post('/stores/scripts/search', { query, max_hops: 1 });
    t.equal(r.passages[0]?.doc_id, id, `${query} -> ${id} (${r.passages.map((p: any) => p.doc_id).join(', ')}) confidence ${r.confidence}`);
  }
});

const words = (p: { text: string; highlights: number[][] }) => p.highlights.map(([a, b]) => p.text.slice(a, b));
const wordLike = (text: string) =>
  [...new Intl.Segmenter('und', { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);

t.test('n_tokens counts the words of unspaced scripts', async (t) => {
  t.same(ingested.doc_ids, Object.keys(DOCS));
  const fuji = await api.get('/stores/scripts/documents/fuji');
  const expected = wordLike(DOCS.fuji[0]).flatMap((w) => w.match(/[0-9]+|[^0-9]+/g)!);
  t.equal(fuji.n_tokens, expected.length, `the dictionary words, digits apart: ${expected.join('|')}`);
  const bangkok = await api.get('/stores/scripts/documents/bangkok');
  t.equal(bangkok.n_tokens, wordLike(DOCS.bangkok[0]).length);
  t.ok(bangkok.n_tokens >= 15);
});

t.test('highlights land on the words as written', async (t) => {
  const jp = (await api.post('/stores/scripts/search', { query: '富士山の標高', max_hops: 1 })).passages[0];
  t.same([...new Set(words(jp))].sort(), ['の', '富士山', '標高'].sort(), 'the query words, whole');
  t.equal(words(jp).filter((w: string) => w === '富士山').length, 2, 'every occurrence, the title too');
  const th = (await api.post('/stores/scripts/search', { query: 'เมืองหลวงของประเทศไทย', max_hops: 1 })).passages[0];
  t.same(words(th), ['เมืองหลวงของประเทศไทย', 'เมือง'], 'Thai words with their vowel and tone marks (adjacent ones merged)');
  const hi = (await api.post('/stores/scripts/search', { query: 'आगरा का मकबरा', max_hops: 1 })).passages[0];
  t.same(words(hi), ['आगरा', 'मकबरा'], 'Devanagari words whole, vowel signs included');
  for (const p of [jp, th, hi]) {
    for (const [a, b] of p.highlights) {
      const segments = [...new Intl.Segmenter('und', { granularity: 'word' }).segment(p.text)];
      t.ok(
        segments.some((s) => s.index === a) && segments.some((s) => s.index + s.segment.length === b),
        `[${a}, ${b}) starts and ends on word boundaries`,
      );
    }
  }
});

t.test('full-width, half-width, ligature, decomposed and case-folded forms match the usual ones', async (t) => {
  await api.post('/stores', { name: 'forms' });
  await api.post('/stores/forms/documents', {
    documents: [
      { id: 'fullwidth', text: 'ＴＯＫＹＯ ＳＫＹＴＲＥＥ is a broadcasting tower.' },
      { id: 'halfwidth', text: 'ｶﾞｲﾄﾞﾌﾞｯｸ of the old town.' },
      { id: 'ligature', text: 'The ﬁnancial ofﬁce of the city.' },
      { id: 'decomposed', text: 'Le pre\u0301sident de la Re\u0301publique.' },
      { id: 'sharp-s', text: 'Die Hauptstraße führt zum Schloss.' },
      { id: 'sigma', text: 'ΟΔΥΣΣΕΑΣ ΚΑΙ ΠΗΝΕΛΟΠΗ' },
    ],
  });
  const cases: Array<[string, string]> = [
    ['tokyo skytree', 'fullwidth'],
    ['ガイドブック', 'halfwidth'],
    ['financial office', 'ligature'],
    ['président république', 'decomposed'],
    ['HAUPTSTRASSE', 'sharp-s'],
    ['Οδυσσέας Πηνελόπη', 'sigma'],
  ];
  for (const [query, id] of cases) {
    const r = await api.post('/stores/forms/search', { query, max_hops: 1 });
    t.equal(r.passages[0]?.doc_id, id, `${query} -> ${id}`);
    t.ok(r.passages[0].highlights.length >= 1, 'and marks the word as written');
  }
});

t.test('a long Japanese document is cut into passages on sentence ends', async (t) => {
  await api.post('/stores', { name: 'long' });
  const sentences = Array.from({ length: 120 }, (_, i) => `第${i + 1}章では、山の気候と植物の分布について詳しく説明している。`);
  const text = `山の本\n${sentences.join('')}`;
  await api.post('/stores/long/documents', { documents: [{ id: 'book', text }] });
  const doc = await api.get('/stores/long/documents/book?include_text=true');
  t.ok(doc.n_tokens > 1000, `${doc.n_tokens} tokens`);
  const r = await api.post('/stores/long/search', { query: '第77章', max_hops: 1 });
  const p = r.passages[0];
  t.ok(p.text.length <= 1200, `a passage of ${p.text.length} characters`);
  t.ok(p.text.length > 600, 'packed with whole sentences');
  t.ok(p.text.endsWith('。'), 'ends on a sentence end');
  t.ok(text.includes(p.text), 'an exact substring of the document');
  t.match(p.text, /^(山の本\n)?第\d+章/, 'starts on a sentence start');
  t.ok(p.text.includes('第77章'));
});

t.test('a search in scripts the model was not trained on does not claim certainty', async (t) => {
  for (const query of ['长城的修筑历史', '富士山の標高', 'เมืองหลวงของประเทศไทย', 'самое глубокое озеро']) {
    const r = await api.post('/stores/scripts/search', { query });
    t.ok(r.confidence <= 0.5, `${query}: confidence ${r.confidence.toFixed(3)}, found ${r.passages[0].doc_id}`);
  }
  const mixed = await api.post('/stores/scripts/search', { query: 'Toulouse 富士山の標高' });
  t.ok(mixed.confidence <= 0.5 + 0.5 / 4, "a question one word in four in the model's script: at most 0.625");
  const latin = await api.post('/stores/scripts/search', { query: 'eglise saint etienne Toulouse' });
  t.ok(latin.confidence > 0.625, `a question in the model's script is not capped (${latin.confidence.toFixed(3)})`);
});
