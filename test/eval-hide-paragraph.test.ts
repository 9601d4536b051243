// `npm run eval -- --hide-paragraph`: over a real server on port 0 (bench/eval-server.ts, the
// shipped model), each group of questions is asked while the store holds its article without the
// paragraph they were written on, and the article is whole again afterwards; a question's answer
// counts as absent when no document, the shortened one included, holds it.
import t from 'tap';
import type { Query } from '../bench/bench-util.js';
import { evalServer, ingestCorpus } from '../bench/eval-server.js';
import { askWithoutParagraphs, withoutParagraph } from '../bench/hide-paragraph.js';

const article = {
  id: 'a',
  text: 'Nantes\n\nNantes lies on the Loire.\n\nIts castle was built in 1466.\n\nThe city has a tramway since 1985.',
};
const other = { id: 'b', text: 'Rennes\n\nRennes got its metro in 2002, long after 1466.' };
const q = (id: string, paragraph: number, answers: string[]): Query => ({
  id,
  query: `q ${id}`,
  answers,
  gold_doc_ids: ['a'],
  gold_paragraph: paragraph,
});

t.test('withoutParagraph drops one blank-line paragraph', async (t) => {
  t.equal(withoutParagraph(article.text, 2), 'Nantes\n\nNantes lies on the Loire.\n\nThe city has a tramway since 1985.');
  t.equal(withoutParagraph('one\n \ntwo', 0), 'two', 'a blank line may hold spaces');
});

t.test('each group is asked of the article without its paragraph, then the article is whole again', async (t) => {
  const { call, stop } = await evalServer({});
  t.teardown(stop);
  await ingestCorpus(call, 'hp', [article, other], 10);
  const queries = [q('castle', 2, ['1466']), q('tram', 3, ['1985']), q('tram2', 3, ['tramway']), q('loire', 1, ['Loire'])];
  const seen = new Map<number, string>();
  const absent = await askWithoutParagraphs(call, 'hp', [article, other], queries, async (indices) => {
    const doc = await call('GET', '/stores/hp/documents/a?include_text=true');
    for (const i of indices) seen.set(i, doc.text);
  });
  t.equal(seen.get(0), withoutParagraph(article.text, 2), 'asked without the castle paragraph');
  t.equal(seen.get(1), withoutParagraph(article.text, 3));
  t.equal(seen.get(2), seen.get(1), 'one group per paragraph');
  t.equal(seen.get(3), withoutParagraph(article.text, 1));
  t.same(absent, [false, true, true, true], '1466 is still in the other document; the rest nowhere');
  t.equal((await call('GET', '/stores/hp/documents/a?include_text=true')).text, article.text, 'whole again afterwards');
  await t.rejects(
    askWithoutParagraphs(call, 'hp', [article], [{ ...queries[0], gold_paragraph: undefined }], async () => {}),
    /names no single paragraph/,
  );
});
