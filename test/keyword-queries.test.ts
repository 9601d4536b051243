// Keyword queries: a query typed as keywords ("director film The Prairie King") rather than phrased as
// a question is scored by the model's keyword sufficiency models and calibration; training builds
// their queries as each training question's keyword form, which never reads as a question.
import fs from 'node:fs';
import t from 'tap';
import { type LoopOutput, type LoopParams, modelFitProblem, sufficiencyFor } from '../src/engine/index.js';
import { isQuestion, isQuestionWord, returnedConfidence } from '../src/engine/ranking/index.js';
import { STOP_WORDS } from '../src/train/hyper.js';
import { keywordForm } from '../src/train/keyword-queries.js';
import { DEVOTION, openShippedStore } from './helpers/shipped-store.js';

t.test('a query is a question when it has a question mark or a question word', async (t) => {
  for (const q of [
    'Who directed Devotion?',
    'when was tesla born',
    'tesla birthplace?',
    'The film Darkon follows a club with which acronym',
    'HOW MANY MOONS DOES MARS HAVE',
    "Americans who've become rich",
    "what's (where) cheap",
  ]) {
    t.ok(isQuestion(q), q);
  }
  for (const q of [
    'director film The Prairie King',
    'capital of peru',
    'whoever somewhere whatnot',
    'Battle of Hastings date',
    'Doctor Who-related song 1988',
    '',
  ]) {
    t.notOk(isQuestion(q), q);
  }
});

t.test('the keyword form drops function and question words but keeps names whole', async (t) => {
  t.equal(keywordForm('Who is the director of the film The Prairie King?'), 'director film The Prairie King');
  t.equal(keywordForm('When did the Battle of Hastings take place?'), 'Battle of Hastings take place');
  t.equal(keywordForm('What is the capital of Peru?'), 'capital Peru');
  t.equal(
    keywordForm('Where was the director of film Confessions Of An Opium Eater born?'),
    'director film Confessions Of An Opium Eater born',
  );
  t.equal(keywordForm('In what year did U.S. troops leave?'), 'year U.S troops leave');
});

t.test('no keyword form of a suite question reads as a question, and each keeps its content words in order', async (t) => {
  const stop = new Set(STOP_WORDS);
  const read = (suite: string) =>
    fs
      .readFileSync(`../shared/bench/${suite}/queries.jsonl`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { query: string }).query);
  const asked = [...read('hotpotqa-dev'), ...read('2wiki-dev'), ...read('musique-dev'), ...read('squad-articles-dev')];
  t.equal(asked.length, 261 + 500 + 100 + 10570);
  for (const q of asked) {
    const kw = keywordForm(q);
    if (isQuestion(kw)) t.fail(`${q} -> ${kw} reads as a question`);
    const content = (q.match(/[\p{L}\p{N}'’.-]+/gu) ?? [])
      .map((w) => w.replace(/^[.]+|[.]+$/g, ''))
      .filter((w) => w && !stop.has(w.toLowerCase().replace(/['’]s$/, '')) && !isQuestionWord(w));
    const kept = kw.split(' ');
    let at = 0;
    for (const w of content) {
      at = kept.indexOf(w, at);
      if (at < 0) {
        t.fail(`${q} -> ${kw} lost "${w}"`);
        break;
      }
      at++;
    }
  }
  t.pass(`${asked.length} questions`);
});

t.test('the loop scores a keyword query with the keyword models, a question with the question ones', async (t) => {
  const store = await openShippedStore(DEVOTION);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  t.ok(
    shipped.keywords && shipped.keywords.conf.length === shipped.conf.length && shipped.keywords.returned,
    'the shipped model has keyword sufficiency models and their calibration',
  );
  const questionsOnly: LoopParams = { ...shipped, keywords: undefined };
  const kwCal = { a: 0.5, b: -1 };
  const withKw: LoopParams = { ...questionsOnly, keywords: { conf: shipped.conf, returned: kwCal } };
  t.equal(sufficiencyFor(withKw, 'director Devotion 1929 film'), withKw.keywords);
  t.equal(sufficiencyFor(withKw, 'Who directed Devotion?'), withKw);
  t.equal(
    sufficiencyFor(questionsOnly, 'director Devotion 1929 film'),
    questionsOnly,
    'a model without keyword models scores every query with its own',
  );

  const question = 'Who is the child of the director of the film Devotion (1929 film)?';
  /** A result without the hops' times (which differ between any two runs). */
  const untimed = (o: LoopOutput) => ({ ...o, steps: o.steps.map(({ ms: _ms, ...step }) => step) });
  t.same(
    untimed(store.search(question, withKw)),
    untimed(store.search(question, questionsOnly)),
    'a question: the same result whatever the keyword models',
  );
  const kw = keywordForm(question);
  const plain = store.search(kw, questionsOnly);
  const got = store.search(kw, withKw);
  t.same(got.hits, plain.hits, 'the same stage models: the same passages');
  const raw = store.search(kw, { ...questionsOnly, returned: undefined });
  t.ok(
    Math.abs(got.confidence - returnedConfidence(kwCal, raw.confidence)) < 1e-12,
    `keyword query: ${raw.confidence.toFixed(3)} -> ${got.confidence.toFixed(3)} by the keyword calibration`,
  );
  t.not(got.confidence.toFixed(6), plain.confidence.toFixed(6));
});

t.test('a model folder whose keyword models do not fit this engine is refused', async (t) => {
  const store = await openShippedStore([{ id: 'd', text: 'Title\nSome text.', metadata: {} }]);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  const conf = shipped.conf;
  t.equal(modelFitProblem({ ...shipped, keywords: { conf } }), undefined);
  t.match(
    modelFitProblem({ ...shipped, keywords: { conf: [{ ...conf[0], w: conf[0].w.slice(1) }, conf[1], conf[2]] } }),
    /keywords\.conf\[0\]\.w .* weights/,
  );
  t.match(modelFitProblem({ ...shipped, keywords: { conf: conf.slice(0, 2) } }), /keywords\.conf has 2 stage models/);
  t.match(modelFitProblem({ ...shipped, keywords: { conf, returned: { a: -1, b: 0 } } }), /keywords\.returned .*order of confidences/);
});
