// SQLite FTS5 as a bench system, driven through the sqlite3 command-line tool from Debian (installed
// with apt-get when missing), one long-lived process per run so its peak RSS can be read from /proc.
// Configuration: an on-disk database; fts5(uid UNINDEXED, title, body, tokenize = 'porter unicode61
// remove_diacritics 2'); one transaction for the bulk insert (from a JSON file through json_each and
// the shell's readfile), then the documented 'optimize' command. Queries: the question's terms,
// stop words dropped, each quoted and OR-ed (FTS5's default is AND, which a natural question almost
// never satisfies), ranked by bm25(u, 0, 2, 1) (title weighted 2x). Invariants: every statement
// batch ends with a sentinel row, so a reply is exactly the lines before it; anything on stderr
// fails the call.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Doc, log, procMaxRss } from './bench-util.js';
import type { BenchSystem, SearchAnswer } from './peer-svc.js';
import { queryTerms, type Unit } from './peer-text.js';

const SENTINEL = '<<end-of-reply>>';

/** Path of the sqlite3 CLI; installs Debian's package when it is missing (needs root and apt). */
export function ensureSqlite3(): string {
  const found = ['/usr/bin/sqlite3', '/usr/local/bin/sqlite3'].find((p) => fs.existsSync(p));
  if (found) return found;
  log('sqlite3 not found: installing the Debian package (apt-get install -y sqlite3)');
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'sqlite3'], { stdio: 'inherit' });
  return '/usr/bin/sqlite3';
}

export class Fts5System implements BenchSystem {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fts5-bench-'));
  private readonly byId = new Map<string, Unit>();
  private out = '';
  private err = '';
  private waiting: ((lines: string[]) => void) | undefined;
  private peakRss = 0;

  constructor(private readonly unitsOf: (docs: Doc[]) => Unit[]) {
    this.proc = spawn(ensureSqlite3(), ['-batch', path.join(this.dir, 'peer.db')], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (b: Buffer) => {
      this.out += b.toString();
      const end = this.out.indexOf(`${SENTINEL}\n`);
      if (end >= 0 && this.waiting) {
        const lines = this.out.slice(0, end).split('\n').filter(Boolean);
        this.out = this.out.slice(end + SENTINEL.length + 1);
        const w = this.waiting;
        this.waiting = undefined;
        w(lines);
      }
    });
    this.proc.stderr.on('data', (b: Buffer) => (this.err += b.toString()));
  }

  /** Sends SQL and resolves with the output lines before the sentinel. */
  private exec(sql: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.waiting = (lines) => (this.err ? reject(new Error(`sqlite3: ${this.err.trim()}`)) : resolve(lines));
      this.proc.stdin.write(`${sql}\nSELECT '${SENTINEL}';\n`);
    });
  }

  async ingest(docs: Doc[]): Promise<void> {
    const units = this.unitsOf(docs);
    for (const u of units) this.byId.set(u.id, u);
    const file = path.join(this.dir, 'units.json');
    fs.writeFileSync(file, JSON.stringify(units.map((u) => ({ id: u.id, title: u.title, body: u.body }))));
    await this.exec(
      [
        '.mode list',
        ".separator '\\t'",
        "CREATE VIRTUAL TABLE u USING fts5(uid UNINDEXED, title, body, tokenize = 'porter unicode61 remove_diacritics 2');",
        'BEGIN;',
        `INSERT INTO u(uid, title, body) SELECT json_extract(value, '$.id'), json_extract(value, '$.title'), json_extract(value, '$.body') FROM json_each(readfile('${file}'));`,
        'COMMIT;',
        "INSERT INTO u(u) VALUES('optimize');",
      ].join('\n'),
    );
    fs.rmSync(file);
  }

  async search(query: string, k: number): Promise<SearchAnswer> {
    const terms = queryTerms(query, true);
    if (!terms.length) return { hits: [], engineMs: 0 };
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    const t0 = performance.now();
    const ids = await this.exec(`SELECT uid FROM u WHERE u MATCH '${match}' ORDER BY bm25(u, 0, 2, 1) LIMIT ${k};`);
    const engineMs = performance.now() - t0;
    return { engineMs, hits: ids.map((id) => this.byId.get(id)!).map((u) => ({ docId: u.docId, text: u.body })) };
  }

  stats(): Record<string, number> {
    this.peakRss = Math.max(this.peakRss, procMaxRss(this.proc.pid!));
    let dbBytes = 0;
    for (const f of fs.readdirSync(this.dir)) dbBytes += fs.statSync(path.join(this.dir, f)).size;
    return { units: this.byId.size, helperMaxRssBytes: this.peakRss, dbBytes };
  }

  async close(): Promise<void> {
    this.stats();
    this.proc.stdin.end('.quit\n');
    await new Promise((r) => this.proc.once('close', r));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
