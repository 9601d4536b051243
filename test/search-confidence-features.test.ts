// The sufficiency features that say how much of a question is left unexplained: its depth (how many
// entities it describes instead of naming them), how many of its terms the evidence lacks, and
// whether the evidence holds its multi-word names (as phrases, or as the words a passage opens with);
// and whether the top chain is about what the question names (titles) and holds much of it in one
// sentence; and the top chain's first passage as hop 1 scores it.
import t from 'tap';
import type { Query, Searcher } from '../src/engine/ranking/index.js';
import {
  H1_NAMES,
  h1Features,
  questionDepth,
  questionNames,
  type Stage,
  SUFFICIENCY_NAMES,
  sufficiencyFeatures,
} from '../src/engine/ranking/index.js';
import { openShippedStore } from './helpers/shipped-store.js';

const docs = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.', metadata: {} },
  { id: 'other', text: 'Silent film\nA silent film is a film with no synchronized recorded sound.', metadata: {} },
  { id: 'lord', text: 'Feudal titles\nThe last heir of the lord was born in 1929; the film of his life was silent.', metadata: {} },
  {
    id: 'untitled',
    text: 'David Yuryevich Dzakhov (born 6 October 1988) is a Russian footballer. He plays for Devotion Town.',
    metadata: {},
  },
  { id: 'bare', text: 'Devotion (German: Hingabe) is a 1929 Italian silent drama film.', metadata: {} },
];
const store = await openShippedStore(docs);
t.teardown(() => store.close());
const [film] = store.rowsOf('film');
const [other] = store.rowsOf('other');
const [lord] = store.rowsOf('lord');
const [untitled] = store.rowsOf('untitled');
const [bare] = store.rowsOf('bare');
/** A stage of one chain with the given result list. */
const stage = (chain: number[], ret: number[]): Stage => ({
  chains: [chain],
  scores: [1],
  ret,
  hops: ret.map(() => 1),
  qcov: [0],
  lk: [0],
});
/** One named confidence feature of a stage, at k = its list's length. */
const feature = (s: Searcher, q: Query, st: Stage, name: string) =>
  sufficiencyFeatures(s.c, q, st, st.ret.length)[SUFFICIENCY_NAMES.indexOf(name)];

t.test('depth counts described entities, not named ones', async (t) => {
  const depth = (text: string) => questionDepth(store.searcher([]).query(text));
  t.equal(depth('Who is the wife of Kim Jong-chul?'), 1, '"the wife of"');
  t.equal(
    depth('When did the Admiral Twin open in the city where the Philbrook Museum is located?'),
    2,
    '"the city where" and "where"; "the Admiral", "the Philbrook" are names',
  );
  t.equal(depth('Who was in charge of the country where the composer of Aschenbrodel was a citizen?'), 3);
  t.equal(depth("What is Aschenbrodel's composer's birthplace?"), 2, 'two possessives');
  t.equal(depth('Who directed Devotion?'), 0, 'a first wh-word is not a clause');
});

t.test('missing-term features count the question terms the evidence lacks', async (t) => {
  const s = store.searcher([]);
  const q = s.query('Who directed Devotion (1929 film)?');
  const lacking = (row: number) => q.qt.filter((term) => !s.c.seq(row).terms.includes(term)).length;
  t.equal(lacking(film), 0, 'the film passage holds every question term');
  t.ok(lacking(other) >= 2, 'the other passage lacks "directed" and "devotion"');
  t.equal(feature(s, q, stage([film], [film]), 'miss_n_top'), 0);
  t.equal(feature(s, q, stage([other], [other]), 'miss_n_top'), lacking(other) / 8);
  t.equal(feature(s, q, stage([other], [other]), 'miss_n_ret'), lacking(other) / 6);
  t.equal(feature(s, q, stage([other], [other, film]), 'miss_n_ret'), 0, 'the results together hold every term');
  t.equal(feature(s, q, stage([other], [other, film]), 'miss_n_top'), lacking(other) / 8, 'the top chain alone still lacks them');
});

t.test('names are runs of capitalised words after the first, matched as phrases or as how a passage opens', async (t) => {
  const s = store.searcher([]);
  const words = (text: string) => questionNames(s.query(text)).map((n) => Array.from(n.terms));
  const heads = (text: string) => questionNames(s.query(text)).map((n) => Array.from(n.head));
  const id = (text: string) => Array.from(s.query(text).ids);
  t.same(words('Where did the director of film The Last Lord die?'), [id('the last lord')], 'a leading "The" belongs to the name');
  t.same(words('Which magazine was published first, Guitar World or Science News?'), [id('guitar world'), id('science news')]);
  t.same(words('Who directed Devotion?'), [], 'one capitalised word is not a multi-word name');
  t.same(words('Who Is It?'), [], 'stop words alone are not a name');
  t.same(words('When was the Marco Polo Bridge Incident?'), [id('marco polo bridge incident')], 'a question of names is not title-cased');
  t.same(words('Where Did The Director Of Film The Last Lord Die?'), [], 'Title Case marks no names');
  t.same(words('WHERE DID THE DIRECTOR OF THE LAST LORD DIE?'), [], 'nor do capitals');
  t.same(words('Barack Obama Birth Place'), [], 'nor do capitalised keywords');
  t.same(heads('Who is the child of the director of film Devotion (1929 Film)?'), [id('devotion')], 'the head ends at a bracket');
  t.same(words('Who is the child of the director of film Devotion (1929 Film)?'), [id('devotion 1929 film')]);
  t.same(heads('Where is Krasnoye, Prokhorovsky District located?'), [id('krasnoye')], 'and at a comma');
  t.same(heads('Where did the director of film The Last Lord die?'), [id('the last lord')], 'a name without either is its own head');

  const q = s.query('Who directed the film The Last Lord, or Silent Film?');
  t.equal(
    feature(s, q, stage([lord], [lord]), 'name_held_ret'),
    0,
    '"the last heir of the lord" holds the words of "The Last Lord", not the phrase',
  );
  t.equal(feature(s, q, stage([other], [other]), 'name_held_ret'), 0.5, 'the title "Silent film" is one of the two names');
  t.equal(feature(s, q, stage([film], [film]), 'name_held_ret'), 0);
  t.equal(feature(s, q, stage([film], [film, other]), 'name_held_ret'), 0.5, 'any returned passage may hold a name');
  t.equal(feature(s, q, stage([film], [film, other, lord]), 'name_held_ret'), 0.5);
  const opened = s.query('Who is older, David Dzakhov or Guido Brignone?');
  t.equal(
    feature(s, opened, stage([untitled], [untitled]), 'name_held_ret'),
    0.5,
    'a passage with no title line opening with the name, a middle name between',
  );
  t.equal(feature(s, opened, stage([film], [film]), 'name_held_ret'), 0.5, '"Guido Brignone" as a phrase');
  t.equal(feature(s, opened, stage([film], [film, untitled]), 'name_held_ret'), 1);
  const headed = s.query('Who directed the film Devotion (1929 Film)?');
  t.equal(feature(s, headed, stage([bare], [bare]), 'name_held_ret'), 1, 'a passage with no title line opens with the head "Devotion"');
  t.equal(feature(s, headed, stage([film], [film]), 'name_held_ret'), 1, 'the title line holds the whole name');
  t.equal(feature(s, headed, stage([untitled], [untitled]), 'name_held_ret'), 0, '"Devotion Town" late in a passage is not its opening');
  const none = s.query('Who directed Devotion?');
  t.equal(feature(s, none, stage([film], [film]), 'name_held_ret'), 1, 'a question that names nothing lacks nothing');
});

t.test('the top chain is about what the question names, and holds it in one sentence', async (t) => {
  const s = store.searcher([]);
  const q = s.query('Who directed Devotion (1929 film)?');
  t.equal(feature(s, q, stage([film], [film]), 'named_top'), 1, 'the question names the title "Devotion (1929 film)"');
  t.equal(feature(s, q, stage([lord], [lord]), 'named_top'), 0, '"Feudal titles" is named nowhere in the question');
  t.equal(feature(s, q, stage([film, lord], [film, lord]), 'named_top'), 0.5, "one of the chain's two passages");
  t.equal(feature(s, q, stage([other, lord], [film, other, lord]), 'named_top'), 0, 'only the top chain counts, not the list');
  const one = feature(s, q, stage([film], [film]), 'sent_top');
  t.ok(one > 0.9, `every question term in one sentence of the film passage (${one.toFixed(3)})`);
  const scattered = feature(s, q, stage([lord], [lord]), 'sent_top');
  t.ok(scattered > 0 && scattered < one, `the lord passage holds "1929" and "film" only (${scattered.toFixed(3)})`);
  t.equal(feature(s, q, stage([lord, film], [lord, film]), 'sent_top'), one, 'the best sentence of any passage of the chain');
});

t.test("the top chain's first passage as hop 1 scores it", async (t) => {
  const s = store.searcher([]);
  const q = s.query('Who directed Devotion (1929 film)?');
  /** Two chains, the second scored higher: its first passage is the one read. */
  const two = (low: number[], high: number[]): Stage => ({
    chains: [low, high],
    scores: [1, 2],
    ret: [...low, ...high],
    hops: [...low, ...high].map(() => 1),
    qcov: [0, 0],
    lk: [0, 0],
  });
  const st = two([film], [lord, film]);
  const f = sufficiencyFeatures(s.c, q, st, st.ret.length);
  const read = h1Features(s.c, q, lord);
  t.same(
    H1_NAMES.map((n) => f[SUFFICIENCY_NAMES.indexOf(`first.${n}`)]),
    Array.from(read),
    "every hop-1 feature of the top chain's first passage, in H1's order",
  );
  t.equal(f[SUFFICIENCY_NAMES.indexOf('first.hit')], 0, '"Feudal titles", which the question does not name, is read first');
  t.equal(feature(s, q, two([lord], [film, lord]), 'first.hit'), 1, 'the film passage, whose title the question names');
  t.not(read[H1_NAMES.indexOf('s')], h1Features(s.c, q, film)[H1_NAMES.indexOf('s')], 'the two passages score apart at hop 1');
});

t.test('a stage whose every chain scores -Infinity (its passages replaced while the search ran) has finite features', async (t) => {
  const s = store.searcher([]);
  const q = s.query('Who directed Devotion (1929 film)?');
  const gone: Stage = {
    ...stage([film], [film, other]),
    chains: [[film], [other]],
    scores: [-Infinity, -Infinity],
    qcov: [0, 0],
    lk: [0, 0],
  };
  const f = sufficiencyFeatures(s.c, q, gone, 2);
  t.same(
    SUFFICIENCY_NAMES.filter((_, i) => !Number.isFinite(f[i])),
    [],
    'every feature a number',
  );
  t.equal(f[SUFFICIENCY_NAMES.indexOf('p_top')], 0, "the top chain's probability, 0 / 0, reads 0");
  const live = sufficiencyFeatures(s.c, q, stage([film], [film, other]), 2);
  t.ok(live.every(Number.isFinite), 'a stage of a store that did not change: every feature a number, as before');
});
