// The client's reading of a JSONL line (src/client/jsonl.ts), shared by `svc ingest` and the web
// console: a line without an id is named from its text's SHA-256 (the same on every run and in both
// readers), a content line keeps its content, and every bad line is an InvalidRequestError naming
// where it is, with the fix.
import { createHash } from 'node:crypto';
import t from 'tap';
import { InvalidRequestError, JSONL_SHAPE, jsonlDocument } from '../src/client/index.js';

t.test('a good line', async (t) => {
  const text = 'Lisbon is the capital of Portugal.';
  const id = `sha256-${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
  t.same(await jsonlDocument(JSON.stringify({ text, metadata: { lang: 'en' } }), 'f:1'), { text, metadata: { lang: 'en' }, id });
  t.same(await jsonlDocument(JSON.stringify({ id: 'a', text }), 'f:1'), { id: 'a', text }, 'an id is kept');
  const content = { media_type: 'application/pdf', data: 'JVBERi0=' };
  t.same(await jsonlDocument(JSON.stringify({ id: 'p', content }), 'f:1'), { id: 'p', content }, 'a content line with its id');
});

t.test('a bad line', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['{"text": ', /^f:7: not valid JSON/],
    ['[1, 2]', /^f:7: not a JSON object$/],
    ['"text"', /^f:7: not a JSON object$/],
    ['{"id": "x"}', /^f:7: 'text' is missing or not a string$/],
    ['{"id": "x", "text": 3}', /^f:7: 'text' is missing or not a string$/],
    ['{"id": "", "text": "a"}', /^f:7: 'id' is not a non-empty string$/],
    ['{"id": 5, "text": "a"}', /^f:7: 'id' is not a non-empty string$/],
    ['{"content": {"media_type": "image/png", "data": ""}}', /^f:7: 'id' is not a non-empty string$/],
  ];
  for (const [line, message] of cases) {
    const err = await jsonlDocument(line, 'f:7').then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof InvalidRequestError, `${line}: InvalidRequestError`);
    t.match((err as InvalidRequestError).message, message, line);
    t.equal((err as InvalidRequestError).fix, JSONL_SHAPE);
  }
});
