// Training data, read from the shared data folder (never copied into the repository): the wiki-pool
// corpus, the multi-hop dev suites (questions with their supporting documents) and SQuAD v1.1 train.
// Every file read is recorded with its SHA-256 so the manifest can name the exact data used.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Metadata } from '../engine/index.js';

export interface CorpusDoc {
  id: string;
  text: string;
  metadata: Metadata;
}

export interface TrainQuery {
  id: string;
  suite: string;
  text: string;
  gold: string[];
  type: string;
  /** answer strings (single-hop questions: a passage holding one of them is the evidence) */
  answers?: string[];
  /** a generated question that trains the returned confidence only: never the chain scorers, the loop's decisions or the reader's re-ordering */
  confidenceOnly?: boolean;
  /** a long-document question's paragraph: its index among its document's blank-line paragraphs */
  paragraph?: number;
}

/** What separates the paragraphs of a long-document suite's documents (../shared/bench/README.md). */
const PARAGRAPH_BREAK = /\n\s*\n/g;

/** [start, end) of paragraph `i` of a text whose paragraphs are separated by blank lines ([0, 0) past the last). */
export function paragraphRange(text: string, i: number): [number, number] {
  let start = 0;
  let k = 0;
  for (const m of text.matchAll(PARAGRAPH_BREAK)) {
    if (k++ === i) return [start, m.index];
    start = m.index + m[0].length;
  }
  return k === i ? [start, text.length] : [0, 0];
}

export interface SquadParagraph {
  title: string;
  para_idx: number;
  context: string;
  qas: Array<{ question: string; answers: string[] }>;
}

export const MULTIHOP_SUITES = ['hotpotqa-dev', '2wiki-dev', 'musique-dev'];

export class DataFolder {
  /** Files read so far: path relative to the data folder and SHA-256. */
  readonly used: Array<{ path: string; sha256: string; bytes: number }> = [];

  constructor(readonly dir: string) {
    if (!fs.existsSync(path.join(dir, 'bench')) || !fs.existsSync(path.join(dir, 'data'))) {
      throw Object.assign(new Error(`${dir} is not the shared data folder (expected bench/ and data/ in it)`), {
        fix: 'Pass --data <folder holding bench/ and data/> (default: ../shared next to the repository).',
      });
    }
  }

  private read(rel: string): string {
    const buf = fs.readFileSync(path.join(this.dir, rel));
    if (!this.used.some((u) => u.path === rel))
      this.used.push({ path: rel, sha256: createHash('sha256').update(buf).digest('hex'), bytes: buf.length });
    return buf.toString('utf8');
  }

  private jsonl<T>(rel: string): T[] {
    return this.read(rel)
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as T);
  }

  corpus(): CorpusDoc[] {
    return this.jsonl<CorpusDoc>('bench/wiki-pool/corpus.jsonl').map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} }));
  }

  multihopQueries(): TrainQuery[] {
    return MULTIHOP_SUITES.flatMap((suite) =>
      this.jsonl<{ id: string; query: string; gold_doc_ids: string[]; type: string; answers?: string[] }>(
        `bench/${suite}/queries.jsonl`,
      ).map((q) => ({
        id: q.id,
        suite,
        text: q.query,
        gold: q.gold_doc_ids,
        type: q.type,
        answers: q.answers,
      })),
    );
  }

  /** The first `n` answerable squad-articles-dev questions (single-hop, over whole articles) and its corpus. */
  squadDev(n: number): { docs: CorpusDoc[]; queries: TrainQuery[] } {
    const docs = this.jsonl<CorpusDoc>('bench/squad-articles-dev/corpus.jsonl').map((d) => ({
      id: d.id,
      text: d.text,
      metadata: d.metadata ?? {},
    }));
    const queries = this.jsonl<{
      id: string;
      query: string;
      gold_doc_ids: string[];
      answers: string[];
      answerable?: boolean;
      type?: string;
      gold_paragraph?: number;
    }>('bench/squad-articles-dev/queries.jsonl')
      .filter((q) => q.answerable !== false)
      .slice(0, n)
      .map((q) => ({
        id: q.id,
        suite: 'squad-articles-dev',
        text: q.query,
        gold: q.gold_doc_ids,
        type: q.type ?? 'single-hop',
        answers: q.answers,
        ...(q.gold_paragraph === undefined ? {} : { paragraph: q.gold_paragraph }),
      }));
    return { docs, queries };
  }

  squadTrain(): SquadParagraph[] {
    return this.jsonl<SquadParagraph>('data/squad-v1.1-train.jsonl');
  }

  /** Titles of the squad-articles-dev articles, read only to keep their paragraphs out of training. */
  squadDevTitles(): Set<string> {
    return new Set(this.jsonl<CorpusDoc>('bench/squad-articles-dev/corpus.jsonl').map((d) => String(d.metadata.title ?? '')));
  }
}

/** SQuAD-train articles held out from the encoder (crc32 of the title mod 8 = 0), as the sufficiency/ranking set. */
export function isHeldOutArticle(title: string): boolean {
  return zlib.crc32(title) % 8 === 0;
}

/**
 * SQuAD paragraphs regrouped into whole articles (blank-line separated, in paragraph order) and
 * `perArticle` of their questions each, spread over the article: single-hop questions whose evidence
 * is a passage of the article containing an answer string.
 */
export function squadArticles(
  paras: SquadParagraph[],
  keep: (title: string) => boolean,
  perArticle: number,
): { docs: CorpusDoc[]; queries: TrainQuery[] } {
  const byTitle = new Map<string, SquadParagraph[]>();
  for (const p of paras) if (keep(p.title)) byTitle.set(p.title, [...(byTitle.get(p.title) ?? []), p]);
  const docs: CorpusDoc[] = [];
  const queries: TrainQuery[] = [];
  for (const title of [...byTitle.keys()].sort()) {
    const ps = byTitle.get(title)!.sort((a, b) => a.para_idx - b.para_idx);
    const id = `squad-train:${title}`;
    docs.push({ id, text: ps.map((p) => p.context).join('\n\n'), metadata: { title: title.replace(/_/g, ' ') } });
    const qas = ps.flatMap((p) => p.qas);
    const step = Math.max(1, Math.floor(qas.length / perArticle));
    for (let i = 0; i < qas.length && i < step * perArticle; i += step) {
      queries.push({
        id: `${id}#${i}`,
        suite: 'squad-train',
        text: qas[i].question,
        gold: [id],
        type: 'single-hop',
        answers: qas[i].answers,
      });
    }
  }
  return { docs, queries };
}
