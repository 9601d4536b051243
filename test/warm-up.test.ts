// Warm-up of a restarted server (src/api/warm-up.ts): it searches its largest store before it answers,
// changes nothing, and does nothing where there is nothing to search.

import t from 'tap';
import { warmUpQueries } from '../src/api/warm-up.js';
import { logCapture, startTestServer } from './helpers/server.js';

t.test("warm-up queries are questions and keywords made of the documents' words", async (t) => {
  const texts = [
    'Ada Lovelace. She wrote the first published algorithm for the Analytical Engine in 1843.',
    'Charles Babbage designed the Analytical Engine.',
    '1843 1844 !!',
    'Alan Turing. He proposed the Turing machine.',
  ];
  const qs = warmUpQueries(texts, 10);
  t.same(
    qs,
    [
      'What She wrote the first published algorithm for Charles Babbage designed?',
      'What Charles Babbage designed the Analytical Engine?',
      'proposed the Turing machine Ada Lovelace She',
    ],
    'seven words of the second sentence and three of the next document; every third as keywords; words under three letters and a text without words skipped',
  );
  t.equal(warmUpQueries(texts, 2).length, 2, 'at most n');
  t.same(warmUpQueries([`Blob. ${'x'.repeat(5000)} data here.`], 1), ['What data here Blob data here?'], 'no word over 40 letters');
  t.same(warmUpQueries([], 5), [], 'no documents, no queries');
});

t.test('a restarted server warms up on its largest store before it answers, and changes nothing', async (t) => {
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 'small' });
  await first.api.post('/stores', { name: 'big' });
  await first.api.post('/stores/small/documents', { documents: [{ id: 's1', text: 'A lone note. Nothing else is here.' }] });
  const docs = Array.from({ length: 40 }, (_, i) => ({
    id: `d${i}`,
    text: `Town ${i}. Town ${i} lies on the river Tok${i} and has ${100 + i} people.`,
  }));
  await first.api.post('/stores/big/documents', { documents: docs });
  const before = await first.api.get('/stores/big/documents?limit=100');
  await first.close();

  const log = logCapture();
  const second = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
  const warmed = log.lines.filter((l) => l.msg === 'engine warmed up');
  t.equal(warmed.length, 1, 'one warm-up');
  t.equal(warmed[0].store, 'big', 'on the store with the most documents');
  t.ok(warmed[0].searches >= 30 && warmed[0].searches <= 48, `searches ran (${warmed[0].searches})`);
  t.equal(log.lines.filter((l) => l.level >= 40).length, 0, 'no warning');
  t.same(await second.api.get('/stores/big/documents?limit=100'), before, 'documents unchanged');
  t.equal((await second.api.get('/health')).status, 'ok');
  const hit = await second.api.post('/stores/big/search', { query: 'Which town lies on the river Tok17?' });
  t.equal(hit.passages[0].doc_id, 'd17', 'searches as before');
});

t.test('a server with no documents skips the warm-up', async (t) => {
  const log = logCapture();
  const s = await startTestServer(t, { logger: log.logger });
  await s.api.post('/stores', { name: 'empty' });
  await s.close();
  const again = logCapture();
  await startTestServer(t, { dataDir: s.dataDir, logger: again.logger });
  t.equal([...log.lines, ...again.lines].filter((l) => l.msg === 'engine warmed up').length, 0, 'nothing to warm on');
});
