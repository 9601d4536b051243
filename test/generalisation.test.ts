// The generalisation table (`npm run eval -- --generalisation`) runs end to end on a small sample:
// every suite held out in turn, the multi-hop ones also untitled, every one asked with no answer in
// the store; figures in range, and the markdown names every suite; --held-out runs a subset. The
// full run's figures are in docs/generalisation.md (it takes about an hour, so it is no test).
import t from 'tap';
import { generalisationMarkdown } from '../bench/generalisation.js';
import type { CorpusDoc } from '../src/train/data.js';
import { generalisation } from '../src/train/generalisation.js';
import { untitledCorpus } from '../src/train/untitled.js';
import { SHARED } from './helpers/server.js';

t.test('titles removed: the first line when it is the title, and metadata.title', async (t) => {
  const docs: CorpusDoc[] = [
    {
      id: 'a',
      text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film.',
      metadata: { title: 'Devotion (1929 film)', source: 'x' },
    },
    { id: 'b', text: 'A first line that is no title\nand more text.', metadata: { title: 'Other' } },
    { id: 'c', text: 'One line only', metadata: {} },
  ];
  t.same(untitledCorpus(docs), [
    { id: 'a', text: 'Devotion is a 1929 Italian silent film.', metadata: { source: 'x' } },
    { id: 'b', text: 'A first line that is no title\nand more text.', metadata: {} },
    { id: 'c', text: 'One line only', metadata: {} },
  ]);
});

t.test('every suite held out, untitled and without its answer, on a sample', async (t) => {
  const suites = await generalisation({ dataDir: SHARED, seed: 3, sample: 3, squadQueries: 6, threads: 1, log: () => {} });
  t.same(
    suites.map((s) => s.suite),
    ['hotpotqa-dev', '2wiki-dev', 'musique-dev', 'squad-articles-dev'],
  );
  for (const s of suites) {
    t.equal(s.loso.queries, 3, `${s.suite}: its sampled questions`);
    for (const v of [...Object.values(s.loso.found), s.loso.ece10, s.loso.eceFloor90, s.noAnswer.hiddenMean, s.noAnswer.otherMean]) {
      t.ok(v >= 0 && v <= 1, `${s.suite}: ${v} in [0, 1]`);
    }
    t.ok(s.loso.meanHops >= 1, `${s.suite}: hops run`);
    t.equal(s.untitled !== undefined, s.judge === 'all-gold-docs', `${s.suite}: untitled for the multi-hop suites`);
    t.equal(s.questions.length, 3, `${s.suite}: every question's searches kept`);
    t.equal(s.questions.filter((q) => q.found).length / 3, s.loso.found['@10'], `${s.suite}: the same searches as the figures`);
    const absent = s.questions.filter((q) => q.answerAbsent);
    t.equal(s.noAnswer.absentQuestions, absent.length, `${s.suite}: the answer-absent questions counted`);
    // a sample's store holds little beside the questions' own documents, so some answer is written nowhere else
    t.ok(absent.length > 0, `${s.suite}: questions whose answer is nowhere else (${absent.length})`);
    t.equal(
      s.noAnswer.absentMean,
      absent.reduce((a, q) => a + q.hiddenConf, 0) / absent.length,
      `${s.suite}: their mean hidden confidence`,
    );
    const paragraph = s.questions.map((q) => q.paragraphConf);
    if (s.judge === 'answer-passage') {
      t.ok(
        paragraph.every((c) => c !== undefined && c >= 0 && c <= 1),
        `${s.suite}: every question asked without its paragraph`,
      );
      t.equal(
        s.noAnswer.paragraphMean,
        paragraph.reduce((sum: number, c) => sum + (c ?? 0), 0) / paragraph.length,
        `${s.suite}: their mean`,
      );
    } else t.ok(paragraph.every((c) => c === undefined) && s.noAnswer.paragraphMean === undefined, `${s.suite}: no paragraph to hide`);
  }
  const md = generalisationMarkdown(suites, {
    date: '2026-01-01',
    minutes: 1,
    command: 'npm run eval -- --generalisation --sample 3',
    sample: 3,
  });
  for (const s of suites) t.match(md, `| ${s.suite} |`);
  t.match(md, /## Untitled/);
  t.match(md, /\| squad-articles-dev \| [\d.]+ \| [\d.]+ \| [\d.]+ \|\n/, 'the paragraph-hidden table');
  t.match(md, /the figures mean nothing/);
});

t.test('--held-out names the suites to hold out; an unknown one is refused before anything is trained', async (t) => {
  // squad-articles-dev alone: its fold trains no reader and no term weights, so this stays quick
  const suites = await generalisation({
    dataDir: SHARED,
    seed: 3,
    sample: 2,
    squadQueries: 4,
    heldOut: ['squad-articles-dev'],
    threads: 1,
    log: () => {},
  });
  t.same(
    suites.map((s) => s.suite),
    ['squad-articles-dev'],
  );
  t.equal(suites[0].untitled, undefined, 'no untitled run for a single-hop suite');
  await t.rejects(generalisation({ dataDir: SHARED, seed: 3, heldOut: ['nq-dev'], log: () => {} }), {
    message: /cannot hold out nq-dev: the suites are hotpotqa-dev, 2wiki-dev, musique-dev, squad-articles-dev/,
  });
});
