// Text analysis: tokens keep their offsets in the original text; folding and Porter stems; passage
// splitting keeps every passage an exact substring of at most 1200 characters, in order of start,
// covering every non-space character, cut at sentence ends and carrying the sentences that follow;
// passages found region by region are the whole text's; the blob format round-trips and refuses another model. Scripts without spaces are cut into
// dictionary words (bigrams where the runtime has no dictionary), forms are NFKC and case-folded,
// combining marks stay inside words, and their sentence ends cut passages.
import fs from 'node:fs';
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { decodeBlob, EncodingFormatError, encodeBlob, packBlobs } from '../src/engine/segment/index.js';
import {
  analyzeDocument,
  analyzePassages,
  analyzerId,
  bigrams,
  countTokens,
  documentTitle,
  FLAG_CAPITALISED,
  FLAG_NUMBER,
  FLAG_SENTENCE_START,
  FLAG_STOP,
  FLAG_YEAR,
  fold,
  leadSubject,
  MAX_PASSAGE,
  passageRegions,
  porterStem,
  regionPassages,
  segmentation,
  shareInScripts,
  splitPassages,
  termSeq,
  tokenize,
  tokenScript,
} from '../src/engine/text/index.js';
import { NO_SPACE_CHAR, splitRun } from '../src/engine/text/segment.js';

t.test('tokens: folded forms with offsets into the original text', async (t) => {
  const text = 'Régis Laspalès, «H. P. Lovecraft» — ﬁnal 1990s naïve';
  const tk = tokenize(text);
  t.same(tk.forms, ['regis', 'laspales', 'h', 'p', 'lovecraft', 'final', '1990s', 'naive']);
  t.equal(text.slice(tk.start[0], tk.end[0]), 'Régis');
  t.equal(text.slice(tk.start[5], tk.end[5]), 'ﬁnal');
  t.equal(countTokens(text), tk.forms.length);
  t.equal(fold('ÉCOLE'), 'ecole');
  t.same(tokenize('').forms, []);
  t.same(tokenize('—!?').forms, []);
});

const shown = (text: string) => {
  const tk = tokenize(text);
  return tk.forms.map((f, i) => `${f}=${text.slice(tk.start[i], tk.end[i])}`);
};

t.test('tokens in scripts written without spaces: dictionary words at their offsets', async (t) => {
  t.equal(segmentation(), 'dictionary', "Node's full ICU has the word dictionaries");
  t.match(analyzerId(), /^svc-text\/6 dictionary$/);
  t.same(tokenize('富士山は静岡県にある').forms, ['富士山', 'は', '静岡', '県', 'に', 'ある']);
  t.same(
    shown('東京タワーは1958年、Tokyoに'),
    ['東京タワー=東京タワー', 'は=は', '1958=1958', '年=年', 'tokyo=Tokyo', 'に=に'],
    'digits and Latin keep their own tokens',
  );
  t.same(tokenize('กรุงเทพมหานครเป็นเมืองหลวง').forms, ['กรุงเทพมหานคร', 'เป็น', 'เมือง', 'หลวง'], 'Thai, vowel and tone marks inside words');
  t.same(tokenize('長城 长城').forms, ['長城', '长城'], 'traditional and simplified stay apart (no conversion)');
  const text = '😀富士山の標高';
  const tk = tokenize(text);
  t.same([...tk.start], [2, 5, 6], 'offsets in UTF-16 units after a character outside the BMP');
});

t.test('tokens: NFKC, case folding, and combining marks inside words', async (t) => {
  t.same(shown('ＴＯＫＹＯ ｶﾞｲﾄﾞ'), ['tokyo=ＴＯＫＹＯ', 'ガイド=ｶﾞｲﾄﾞ'], 'full-width and half-width forms');
  t.same(tokenize('e\u0301te\u0301 été').forms, ['ete', 'ete'], 'decomposed and composed accents');
  t.same(tokenize('Straße STRASSE').forms, ['strasse', 'strasse'], 'ß folds to ss');
  t.same(tokenize('ΟΔΥΣΣΕΑΣ Οδυσσέας').forms, ['οδυσσεασ', 'οδυσσεασ'], 'final sigma, Greek accents');
  t.same(tokenize('Никола́й').forms, ['николаи'], 'a stress mark no longer splits a Cyrillic word');
  t.same(tokenize('हिन्दी भाषा').forms, ['हिन्दी', 'भाषा'], 'Devanagari vowel signs are letters of the word, not accents');
  t.same(tokenize('\u0301abc').forms, ['abc'], 'a mark with no letter before it is a separator');
  t.same(tokenize('대한민국의 수도').forms, ['대한민국의', '수도'], 'Hangul syllables as written');
});

/** A run of letters and digits with the marks inside it. */
const REF_RUN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** A plain tokenizer to check tokenize (and its caches) against: runs found by one regular expression, each folded afresh. */
function referenceTokens(text: string): { forms: string[]; start: number[]; end: number[] } {
  const out = { forms: [] as string[], start: [] as number[], end: [] as number[] };
  const push = (raw: string, s: number, e: number) => {
    for (const m of fold(raw).matchAll(REF_RUN)) {
      out.forms.push(m[0].slice(0, 64));
      out.start.push(s);
      out.end.push(e);
    }
  };
  for (const m of text.matchAll(REF_RUN)) {
    const s = m.index ?? 0;
    if (!NO_SPACE_CHAR.test(m[0])) push(m[0], s, s + m[0].length);
    else for (const w of splitRun(m[0])) push(w.text, s + w.start, s + w.end);
  }
  return out;
}

const asTokens = (text: string) => {
  const tk = tokenize(text);
  return { forms: tk.forms, start: [...tk.start], end: [...tk.end] };
};

t.test('tokens: the plain reference, with the caches cold and warm', async (t) => {
  const words = [
    'Москва',
    'столица',
    'Straße',
    'naïve',
    'ΟΔΥΣΣΕΑΣ',
    'e\u0301te\u0301',
    '東京タワーは',
    '½',
    'ﬁnal',
    'Tokyo',
    'x'.repeat(70),
    'Ab'.repeat(40),
  ];
  const piece = fc.oneof(fc.constantFrom(...words, ' ', '. ', '\n', '—'), fc.string({ unit: 'binary', maxLength: 6 }));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
      const text = parts.join('');
      const want = JSON.stringify(referenceTokens(text));
      // twice: the first may fill the caches, the second reads them
      return JSON.stringify(asTokens(text)) === want && JSON.stringify(asTokens(text)) === want;
    }),
    { numRuns: 200, seed: 17 },
  );
  t.pass('the same forms and offsets on 200 random texts');
  // (the scripts written without spaces left out: their runs go through a word segmenter, slow to call 30,000 times)
  const bmp: string[] = [];
  for (let c = 128; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    if ((c < 0xd800 || c > 0xdfff) && !NO_SPACE_CHAR.test(ch)) bmp.push(`a${ch}b ${ch} `);
  }
  const text = bmp.join('');
  t.same(
    asTokens(text),
    referenceTokens(text),
    'every other character of the BMP beside and between letters, as the regular expressions class it',
  );
});

t.test('bigrams: the fallback where the runtime has no word dictionaries', async (t) => {
  t.same(
    bigrams('富士山の').map((w) => w.text),
    ['富士', '士山', '山の'],
  );
  t.same(bigrams('山'), [{ text: '山', start: 0, end: 1 }]);
  t.same(
    bigrams('เมือง').map((w) => w.text),
    ['เมื', 'มือ', 'อง'],
    'a character is a letter with its marks',
  );
});

t.test('scripts: of a token, and the share of a question in some', async (t) => {
  t.same(['word', 'слово', '富士山', 'ประเทศ', '1958', 'x1'].map(tokenScript), ['Latin', 'Cyrillic', 'Han', 'Thai', undefined, 'Latin']);
  t.equal(shareInScripts(tokenize('Tokyo 富士山の標高').forms, ['Latin']), 0.25);
  t.equal(shareInScripts(tokenize('1958 2001').forms, ['Latin']), 1, 'no letter: nothing to doubt');
  t.equal(shareInScripts(tokenize('слово word').forms, ['Latin', 'Cyrillic']), 1);
});

t.test('porter stems', async (t) => {
  const cases: Record<string, string> = {
    caresses: 'caress',
    ponies: 'poni',
    relational: 'relat',
    hopping: 'hop',
    filing: 'file',
    generalization: 'gener',
    '1990s': '1990',
    '1990': '1990',
    as: 'as',
  };
  for (const [w, s] of Object.entries(cases)) t.equal(porterStem(w), s, w);
});

function checkPassages(t: Test, text: string, max = MAX_PASSAGE) {
  const ps = splitPassages(text);
  const covered = new Uint8Array(text.length);
  let last = -1;
  for (const [s, e] of ps) {
    t.ok(s > last && e > s, 'in order of start');
    t.ok(e - s <= max, `at most ${max} characters (${e - s})`);
    const p = text.slice(s, e);
    t.equal(p, p.trim(), 'no surrounding whitespace');
    covered.fill(1, s, e);
    last = s;
  }
  t.ok(
    [...text].every((ch, i) => covered[i] || /\s/.test(ch)),
    'every non-space character is in a passage',
  );
  return ps;
}

t.test('passages: sentences packed within paragraphs', async (t) => {
  const sentence = (i: number) => `Sentence number ${i} says something about topic ${i % 7}.`;
  const para = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
  const text = `Title line\n\n${para}\n\n${Array.from({ length: 5 }, (_, i) => sentence(i)).join(' ')}\n\n\nShort tail.`;
  const ps = checkPassages(t, text);
  t.ok(ps.length >= 3);
  t.ok(
    ps.every(([s, e]) => /[.!?]$/.test(text.slice(s, e))),
    'cut at sentence ends',
  );
  t.ok(
    ps.slice(0, -1).some(([, e], i) => e > ps[i + 1][0]),
    'passages carry the sentences after them',
  );
  t.same(splitPassages('Dr. Smith met J. R. Tolkien. They talked.'), [[0, 41]], 'no cut after abbreviations or initials');
  checkPassages(t, 'x'.repeat(5000));
  checkPassages(t, `${'word '.repeat(1000)}end`);
  checkPassages(t, 'One sentence only');
  t.same(splitPassages('   \n\n  '), []);
  checkPassages(t, 'Mr. Smith went to Washington. He arrived at 3 p.m. on Monday! Did he? "Yes." (Really.) Then he left.\nNew line here.');
});

t.test('passages: sentence ends of scripts that need no space after them', async (t) => {
  const jp = Array.from({ length: 80 }, (_, i) => `第${i}章では山の気候について説明している。`).join('');
  let ps = checkPassages(t, jp);
  t.ok(ps.length >= 2);
  t.ok(
    ps.every(([s, e]) => jp[e - 1] === '。' && jp.slice(s, s + 1) === '第'),
    'cut after 。',
  );
  const th = Array.from({ length: 60 }, () => 'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย').join(' ');
  ps = checkPassages(t, th);
  t.ok(
    ps.every(([s, e]) => th.slice(s, e).startsWith('กรุงเทพ') && th.slice(s, e).endsWith('ประเทศไทย')),
    'Thai: cut at the spaces between sentences',
  );
  const km = Array.from({ length: 60 }, () => 'អង្គរវត្តជាប្រាសាទដ៏ធំបំផុតនៅប្រទេសកម្ពុជា។').join('');
  t.ok(
    checkPassages(t, km).every(([, e]) => km[e - 1] === '។'),
    'Khmer: cut after ។',
  );
  const run = '山'.repeat(1000) + '😀'.repeat(400);
  ps = checkPassages(t, run);
  t.ok(
    ps.every(([s, e]) => !/[\udc00-\udfff]/.test(run[s]) && !/[\ud800-\udbff]/.test(run[e - 1])),
    'a sentence without spaces is never cut inside a character',
  );
  const commas = Array.from({ length: 200 }, () => '山の気候、').join('');
  t.ok(
    checkPassages(t, commas)
      .slice(0, -1)
      .every(([, e]) => commas[e - 1] === '、'),
    '... and after a CJK comma when there is one',
  );
});

t.test('passages found region by region are the passages of the whole text', async (t) => {
  const piece = fc.constantFrom(
    'Alpha',
    'beta',
    'Dr.',
    'J. R.',
    '1990',
    'Kansas City',
    'ประเทศไทย',
    '中文。',
    'x'.repeat(70),
    ' ',
    ' ',
    '. ',
    '! ',
    '? "',
    '\n',
    '\n\n',
    '\n \n',
    '\r\n\r\n',
    '\n\n\n',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 20, max: 90 }), (parts, k, max) => {
      const text = parts.join('');
      const regions = passageRegions(text, k, max);
      const found = regions.flatMap((r) => regionPassages(text.slice(r.from, r.to), r, max));
      return (
        JSON.stringify(found) === JSON.stringify(splitPassages(text, max)) &&
        regions.every((r, i) => i === 0 || r.from === regions[i - 1].before)
      );
    }),
    { numRuns: 500, seed: 5 },
  );
  t.pass('the same passages on 500 random texts, 1 to 6 regions, passages of 20 to 90 characters');
  const long = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} has a sentence. And another one follows it here.`).join('\n\n');
  t.equal(passageRegions(long, 4).length, 4, 'a long text in as many regions as asked');
});

t.test('overlapping passages analysed from one tokenization are each passage analysed alone', async (t) => {
  const stop = new Set(['the', 'a', 'of', 'and', 'is']);
  /** What analyzePassages gave before it shared a tokenization: each passage's own slice, tokenized and read alone. */
  const alone = (text: string, spans: ReadonlyArray<readonly [number, number]>) =>
    spans.map(([s, e]) => {
      const slice = text.slice(s, e);
      return { start: s, end: e, ...termSeq(slice, tokenize(slice), stop) };
    });
  const same = (text: string, spans: ReadonlyArray<readonly [number, number]>, offset = 0) => {
    const got = analyzePassages(text.slice(offset), spans, stop, offset);
    const want = alone(text, spans);
    return (
      got.nTokens === want.reduce((n, p) => n + p.terms.length, 0) &&
      got.passages.every(
        (p, i) =>
          p.start === want[i].start &&
          p.end === want[i].end &&
          p.terms.join() === want[i].terms.join() &&
          p.flags.join() === want[i].flags.join(),
      )
    );
  };
  const piece = fc.constantFrom(
    'The cat',
    'sat on the mat',
    'Paris',
    '1990',
    'e.g. this',
    'Dr.',
    'naïve café',
    'e\u0301te\u0301',
    'ﬁnal ½',
    'ประเทศไทย',
    '中文。',
    '山の気候、',
    'x'.repeat(70),
    'Ab'.repeat(40),
    ' ',
    '. ',
    '! ',
    '? "',
    '\u00a0',
    '\n',
    '\n\n',
    '\nHeading\n',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 300 }), fc.integer({ min: 20, max: 200 }), (parts, max) => {
      const text = parts.join('');
      return same(text, splitPassages(text, max));
    }),
    { numRuns: 500, seed: 7 },
  );
  t.pass('the same terms and flags on 500 random texts, passages of 20 to 200 characters (words cut at hard splits among them)');
  const articles = fs
    .readFileSync('../shared/bench/squad-articles-dev/corpus.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const book = articles.join('\n\n');
  const spans = splitPassages(book);
  t.ok(spans.length > 1000, 'the SQuAD articles joined make a long text of overlapping passages');
  t.ok(same(book, spans), '... analysed as each passage alone');
  const from = spans[500][0];
  t.ok(same(book, spans.slice(500), from), '... also from a piece of the text that starts at an offset');
});

t.test('titles and per-token flags', async (t) => {
  t.equal(documentTitle('Guido Brignone\nGuido Brignone was an Italian director.'), 'Guido Brignone');
  t.equal(documentTitle('One line only'), '');
  t.equal(documentTitle('A long first sentence that ends with a period.\nMore'), '');
  t.equal(documentTitle('whatever\ntext', { title: 'Given' }), 'Given');
  const d = analyzeDocument('Devotion (1929 film)\nDevotion is a film by Guido Brignone.', undefined, new Set(['is', 'a', 'by']));
  t.equal(d.passages.length, 1);
  t.equal(d.title.length, 3);
  t.equal(d.baseLen, 1, 'parenthetical dropped from the base title');
  const flags = [...d.passages[0].flags];
  t.ok(flags[0] & FLAG_CAPITALISED);
  t.ok(flags[5] & FLAG_STOP, "'is' is a stop word");
  t.ok(flags[8] & FLAG_CAPITALISED, "'Guido' capitalised");
  t.equal(d.nTokens, 10);
});

t.test('the capitalised flag of a token opening with any character of the BMP, its table cold and warm', async (t) => {
  const units: string[] = [];
  for (let c = 128; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    if (/\p{L}/u.test(ch) && !NO_SPACE_CHAR.test(ch)) units.push(`${ch}a`);
  }
  const text = units.join(' ');
  const tk = tokenize(text);
  const want = Array.from(tk.start, (s) => {
    const ch = text[s];
    return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
  });
  for (const pass of ['cold', 'warm']) {
    const { flags } = termSeq(text, tk, new Set());
    const wrong = want.flatMap((w, i) => (((flags[i] & FLAG_CAPITALISED) !== 0) === w ? [] : [text[tk.start[i]]]));
    t.same(wrong.slice(0, 10), [], `${tk.forms.length} tokens, an uppercase letter first exactly where the rule says (${pass})`);
  }
});

t.test('number and year flags: ASCII digits only; a year is four digits from 1000 to 2099', async (t) => {
  const text = 'In 999 1000 1999 2000 2099 2100 0815 42 x1999 1999s 12345 ٢٠٢٠ and ２０１９.';
  const tk = tokenize(text);
  const { flags } = termSeq(text, tk, new Set());
  const got = tk.forms.map((f, i) => `${f}:${flags[i] & FLAG_NUMBER ? 'n' : ''}${flags[i] & FLAG_YEAR ? 'y' : ''}`);
  // the reference: the definitions as regular expressions
  const want = tk.forms.map((f) => `${f}:${/^[0-9]+$/.test(f) ? 'n' : ''}${/^(1[0-9]{3}|20[0-9]{2})$/.test(f) ? 'y' : ''}`);
  t.same(got, want);
  t.same(got.slice(1, 9), ['999:n', '1000:ny', '1999:ny', '2000:ny', '2099:ny', '2100:n', '0815:n', '42:n']);
  t.ok(got.includes('x1999:') && got.includes('1999s:') && got.includes('12345:n'));
});

t.test('a document without a title line is titled by the subject its first sentence names', async (t) => {
  const named: Array<[string, string]> = [
    ['Guido Brignone (6 December 1886 – 6 March 1959) was an Italian film director.', 'Guido Brignone'],
    ['Devotion is a 1929 Italian silent drama film directed by Guido Brignone.', 'Devotion'],
    ['The University of Kansas, often referred to as KU, is a public research university.', 'The University of Kansas'],
    ['Samuel Tak Lee or Lee Tak-Yee (born April 1939) is a Hong Kong property magnate.', 'Samuel Tak Lee'],
    ['Rory B. Quintos (born October 31, 1962) is a Filipino television and film director.', 'Rory B. Quintos'],
    ['Fujiwara no Yoritada (924 – 31 July 989) was a kugyo.', 'Fujiwara no Yoritada'],
    ['"I Can\'t See Myself Leaving You" is a song written by Ronnie Shannon.', "I Can't See Myself Leaving You"],
    ['A Daughter of Australia is a 1922 Australian silent film.', 'A Daughter of Australia'],
    ['Daniel Rosa or Rosas may refer to:', 'Daniel Rosa'],
    ['My Three Angels is a 1955 play by Samuel and Bella Spewack.', 'My Three Angels'],
    ['He Jianjun (born 1960 in Beijing) is a Chinese film director.', 'He Jianjun'],
    ['They Came to Cordura is a 1959 American western film.', 'They Came to Cordura'],
  ];
  for (const [text, subject] of named) t.equal(documentTitle(text), subject, text);
  const none = [
    'In 2001, Apple introduced Mac OS X, based on Darwin.',
    'He was born in Lisbon and studied painting.',
    'His 1990 album, recorded in Paris, sold well.',
    'In Paris, the band recorded its second album.',
    'This film was directed by Guido Brignone.',
    'Child soldiers have and continue to play a major part in the army.',
    "The woman's film is a film genre which includes women-centered narratives.",
    'A list of films produced in Japan ordered by year.',
    'Mr. Smith went home. Later it was dark.',
    'After the war, the village was rebuilt.',
    'One line only',
    '',
  ];
  for (const text of none) t.equal(documentTitle(text), '', `no subject: ${text}`);
  t.equal(documentTitle('A long first line that ends with a period.\nMore'), '', 'a first line that is a sentence names no subject here');
  t.equal(leadSubject('Guido Brignone was an Italian director.\nMore'), 'Guido Brignone');
  const d = analyzeDocument(
    'Guido Brignone (1886 – 1959) was an Italian film director. He directed Devotion.',
    undefined,
    new Set(['was', 'an']),
  );
  t.equal(d.title.length, 2, 'the subject indexed as the title');
});

t.test('sentence starts: after a terminal mark before a capital, or a newline; never after a plain space', async (t) => {
  const text = 'Devotion is a film. It was made in 1929 (e.g. the print) by Guido Brignone! "Who knew?" Nobody.\nnext line';
  const d = analyzeDocument(text, undefined, new Set());
  const tk = tokenize(text.slice(d.passages[0].start, d.passages[0].end));
  const starts = tk.forms.filter((_, i) => d.passages[0].flags[i] & FLAG_SENTENCE_START);
  t.same(
    starts,
    ['devotion', 'it', 'who', 'nobody', 'next'],
    "the first token; 'It', 'Who' and 'Nobody' after . ! ?; 'next' after a newline; not 'the' after 'e.g.'",
  );
  const jp = '富士山は山である。「東京」は都市だ！大阪は？ 京都、奈良';
  const dj = analyzeDocument(jp, undefined, new Set());
  const tj = tokenize(jp);
  t.same(
    tj.forms.filter((_, i) => dj.passages[0].flags[i] & FLAG_SENTENCE_START),
    ['富士山', '東京', '大阪', '京都'],
    'after 。！？ (and an opening bracket), whatever follows; not after 、',
  );
});

t.test('document encodings round-trip and are tied to their model', async (t) => {
  const d = analyzeDocument('Title\nFirst sentence here. Second one there.', undefined, new Set());
  const dim = 5;
  const vecs = Int8Array.from({ length: dim * d.passages.length }, (_, i) => i - 3);
  const scales = Float32Array.from(d.passages, (_, i) => 0.5 + i);
  const blob = encodeBlob(d, 1234, dim, vecs, scales);
  const back = decodeBlob(blob, 1234);
  t.same([...back.title], [...d.title]);
  t.same([...back.passages[0].terms], [...d.passages[0].terms]);
  t.same([...back.passages[0].vec], [...vecs.subarray(0, dim)]);
  t.equal(back.passages[0].scale, 0.5);
  t.ok(
    [back.title, back.passages[0].terms, back.passages[0].vec, back.passages[0].flags].every((a) => a.buffer === blob.buffer),
    'an aligned blob is read in place: views, no copies',
  );
  const shifted = new Uint8Array(blob.length + 1).subarray(1);
  shifted.set(blob);
  const copied = decodeBlob(shifted, 1234);
  t.same(copied, back, 'a blob at an odd offset reads the same, its words copied');
  t.not(copied.passages[0].terms.buffer, shifted.buffer, 'misaligned words are copied');
  const packed = packBlobs([shifted, blob.subarray(0, 5), blob]);
  t.same(
    packed.blobs.map((b) => b.byteOffset),
    [0, blob.length + ((4 - (blob.length % 4)) % 4), blob.length + ((4 - (blob.length % 4)) % 4) + 8],
    'packed blobs start at 4-byte boundaries',
  );
  t.ok(
    packed.blobs.every((b) => b.buffer === packed.buffer),
    'in one buffer',
  );
  t.same(decodeBlob(packed.blobs[2], 1234), back, 'a packed blob reads the same');
  t.ok(decodeBlob(packed.blobs[0], 1234).passages[0].terms.buffer === packed.buffer, 'in place');
  t.throws(() => decodeBlob(blob, 999), EncodingFormatError);
  t.throws(() => decodeBlob(blob.subarray(0, blob.length - 3), 1234), EncodingFormatError);
  t.throws(() => decodeBlob(new Uint8Array(8), 1234), EncodingFormatError);
});
