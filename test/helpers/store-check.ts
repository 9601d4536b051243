// Checks of a data dir as tests see it: every store's invariants on disk (StoreDb.verify, with no
// server running on it), every document of a store through the API (cursor walk, with text), and
// the files a data dir holds (to prove a request wrote nothing, or nothing outside its project).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isStoreId } from '../../src/store/catalog.js';
import { StoreDb } from '../../src/store/store-db.js';
import type { Api } from './server.js';

/** The problems StoreDb.verify finds in every store folder under `dataDir`, prefixed by the folder. */
export async function verifyDataDir(dataDir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const project of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (!project.isDirectory() || project.name.startsWith('.')) continue;
    for (const e of fs.readdirSync(path.join(dataDir, project.name), { withFileTypes: true })) {
      if (!e.isDirectory() || !isStoreId(e.name)) continue;
      const db = StoreDb.open(path.join(dataDir, project.name, e.name));
      try {
        problems.push(...db.verify().map((p) => `${project.name}/${e.name}: ${p}`));
      } finally {
        await db.close();
      }
    }
  }
  return problems;
}

export interface WalkedDoc {
  id: string;
  metadata: Record<string, unknown>;
  n_tokens: number;
}

/** Every document of a store, newest first, by walking its pages. */
export async function walkDocs(api: Api, store: string): Promise<WalkedDoc[]> {
  const out: WalkedDoc[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api.get(`/stores/${store}/documents?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    out.push(...page.documents);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

/** Paths of every file and folder under `dir` (relative; folders end in '/'), sorted. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name);
      out.push(e.isDirectory() ? `${p}/` : p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Every path under `dir` with a digest of its content (LMDB's lock.mdb, which readers write, by
 * presence only): two equal snapshots mean nothing was written in between.
 */
export function snapshot(dir: string): Record<string, string> {
  const m: Record<string, string> = {};
  for (const p of listTree(dir)) {
    m[p] =
      p.endsWith('/') || path.basename(p) === 'lock.mdb'
        ? ''
        : createHash('sha256')
            .update(fs.readFileSync(path.join(dir, p)))
            .digest('hex')
            .slice(0, 16);
  }
  return m;
}
