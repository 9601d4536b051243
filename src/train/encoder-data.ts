// Training pairs of the dense encoder, as term-id sequences: SQuAD-train questions with their
// paragraphs, grouped by article so a batch holds hard negatives; and self-supervised pairs from the
// wiki-pool text (a title with its paragraph, or a sentence with the rest of its paragraph). Neither
// the held-out SQuAD-train articles (isHeldOutArticle) nor the evaluation articles of
// squad-articles-dev (whose paragraphs are also in the wiki-pool) are used.
import { FLAG_SENTENCE_START, termId, termSeq, tokenize } from '../engine/index.js';
import { type CorpusDoc, isHeldOutArticle, type SquadParagraph } from './data.js';

export interface EncoderCorpus {
  /** SQuAD paragraphs as term ids, their article index, and their questions */
  paragraphs: Uint32Array[];
  article: number[];
  questions: Uint32Array[][];
  /** wiki-pool documents: title terms and sentences (term ids) */
  pool: Array<{ title: Uint32Array; sentences: Uint32Array[] }>;
}

function ids(text: string): Uint32Array {
  return Uint32Array.from(tokenize(text).forms, termId);
}

function sentencesOf(text: string): Uint32Array[] {
  const seq = termSeq(text, tokenize(text), new Set());
  const out: Uint32Array[] = [];
  let start = 0;
  for (let i = 1; i <= seq.terms.length; i++) {
    if (i < seq.terms.length && !(seq.flags[i] & FLAG_SENTENCE_START)) continue;
    if (i > start) out.push(seq.terms.slice(start, i));
    start = i;
  }
  return out;
}

export function encoderCorpus(squad: SquadParagraph[], pool: CorpusDoc[], excludedTitles: ReadonlySet<string>): EncoderCorpus {
  const out: EncoderCorpus = { paragraphs: [], article: [], questions: [], pool: [] };
  const articles = new Map<string, number>();
  for (const p of squad) {
    if (isHeldOutArticle(p.title)) continue;
    if (!articles.has(p.title)) articles.set(p.title, articles.size);
    out.paragraphs.push(ids(p.context));
    out.article.push(articles.get(p.title)!);
    out.questions.push(p.qas.map((q) => ids(q.question)));
  }
  for (const d of pool) {
    const title = typeof d.metadata.title === 'string' ? d.metadata.title : '';
    if (d.metadata.source === 'squad' && (isHeldOutArticle(title.replace(/ /g, '_')) || excludedTitles.has(title))) continue;
    const nl = d.text.indexOf('\n');
    const body = nl >= 0 ? d.text.slice(nl + 1) : d.text;
    out.pool.push({ title: ids(title), sentences: sentencesOf(body) });
  }
  return out;
}
