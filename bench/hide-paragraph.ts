// `npm run eval -- --suite ../shared/bench/squad-articles-dev --hide-paragraph`: each question asked
// of its article with the paragraph it was written on removed, the rest of the article and of the
// store as they are (SQuAD 2.0's unanswerable questions are of this kind: the document is there and
// does not say it). Questions are grouped by that paragraph; per group the article is upserted
// without it, the group asked, and the article put back whole before the next group.
// Invariants: the store holds the suite's corpus as ingested before and after; a question counts as
// absent from the store when no document, the shortened article included, holds one of its answers.
import { AnswerText } from '../src/train/answer-presence.js';
import { paragraphRange } from '../src/train/data.js';
import type { Doc, Query } from './bench-util.js';
import type { Call } from './eval-server.js';

/** The text without its paragraph `paragraph` and the blank line after it (before it, for the last). */
export function withoutParagraph(text: string, paragraph: number): string {
  const [start, end] = paragraphRange(text, paragraph);
  if (end === 0) return text;
  const next = text.slice(end).match(/^\n\s*\n/)?.[0].length ?? 0;
  return next > 0 || start === 0 ? text.slice(0, start) + text.slice(end + next) : text.slice(0, start).replace(/\n\s*\n$/, '');
}

/**
 * Asks every query (each with `gold_paragraph`) of `store` with its paragraph removed from its gold
 * document, by `ask` (which asks a list of queries and resolves when all are answered); returns, per
 * query in order, whether its answer is absent from the store so shortened.
 */
export async function askWithoutParagraphs(
  call: Call,
  store: string,
  corpus: readonly Doc[],
  queries: readonly Query[],
  ask: (indices: number[]) => Promise<void>,
): Promise<boolean[]> {
  const byId = new Map(corpus.map((d) => [d.id, d]));
  const groups = new Map<string, number[]>();
  queries.forEach((q, i) => {
    if (q.gold_paragraph === undefined || q.gold_doc_ids.length !== 1)
      throw new Error(`query ${q.id} names no single paragraph of one document`);
    const key = `${q.gold_doc_ids[0]}\n${q.gold_paragraph}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const put = (d: Doc, text: string) =>
    call('POST', `/stores/${store}/documents`, { documents: [{ id: d.id, text, metadata: d.metadata ?? {} }] });
  const elsewhere = new AnswerText(corpus);
  const absent: boolean[] = new Array(queries.length).fill(false);
  for (const [key, indices] of groups) {
    const [id, paragraph] = key.split('\n');
    const doc = byId.get(id);
    if (!doc) throw new Error(`gold document ${id} is not in the corpus`);
    const text = withoutParagraph(doc.text, Number(paragraph));
    await put(doc, text);
    await ask(indices);
    await put(doc, doc.text);
    const shortened = new AnswerText([{ id, text }]);
    for (const i of indices) absent[i] = shortened.absent(queries[i].answers, []) && elsewhere.absent(queries[i].answers, [id]);
  }
  return absent;
}
