// Shared helpers of the benches: suite and corpus loading from ../shared/bench, percentiles, a child
// process runner that returns the child's JSON report with its peak resident memory, and table
// formatting. Invariants: every bench figure comes from one run of this process tree; a child
// reports exactly one JSON object on its last stdout line; peak RSS is the kernel's high-water
// mark (getrusage maxRSS) of that child, never a sample.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { residentBytesByMapping } from '../src/store/map-residency.js';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.resolve(BENCH_DIR, '..');
export const SHARED_BENCH = path.resolve(REPO_DIR, '../shared/bench');

export interface Doc {
  id: string;
  text: string;
  metadata?: Record<string, string | number | boolean>;
}

export interface Query {
  id: string;
  query: string;
  answers?: string[];
  gold_doc_ids: string[];
  answerable?: boolean;
  /** the question's kind as the suite names it (bridge, comparison, ...), where it does */
  type?: string;
  gold_paragraph?: number;
}

export const MULTI_HOP_SUITES = ['hotpotqa-dev', '2wiki-dev', 'musique-dev'] as const;
export const LONG_DOC_SUITE = 'squad-articles-dev';

export function readJsonl<T>(p: string): T[] {
  return fs
    .readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

export function suiteQueries(suite: string, limit?: number): Query[] {
  const qs = readJsonl<Query>(path.join(SHARED_BENCH, suite, 'queries.jsonl'));
  return limit ? qs.slice(0, limit) : qs;
}

export function suiteCorpus(suite: string): Doc[] {
  const meta = JSON.parse(fs.readFileSync(path.join(SHARED_BENCH, suite, 'SUITE.json'), 'utf8')) as { corpus: string };
  return readJsonl<Doc>(path.resolve(SHARED_BENCH, suite, meta.corpus));
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export const median = (xs: number[]) => percentile(xs, 50);

/** Title of a document: metadata.title, else its first line. */
export function titleOf(d: Doc): string {
  const t = d.metadata?.title;
  return typeof t === 'string' ? t : d.text.slice(0, Math.max(0, d.text.indexOf('\n')));
}

export interface ChildReport {
  report: Record<string, unknown>;
  /** Peak resident set of the child process, bytes. */
  maxRssBytes: number;
  wallSeconds: number;
}

/**
 * Runs `node --import tsx <script> <json args>` and returns the JSON object printed on its last
 * stdout line (the child adds its own `maxRssBytes`). Stderr passes through for progress lines.
 */
export function runChild(script: string, args: unknown, opts: { nodeArgs?: string[] } = {}): Promise<ChildReport> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(BENCH_DIR, script), JSON.stringify(args)],
      {
        cwd: REPO_DIR,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} ${JSON.stringify(args)} exited ${code}: ${last.slice(0, 500)}`));
      try {
        const report = JSON.parse(last) as Record<string, unknown>;
        resolve({ report, maxRssBytes: Number(report.maxRssBytes ?? 0), wallSeconds: (performance.now() - started) / 1000 });
      } catch (err) {
        reject(new Error(`${script}: no JSON report (${String(err)}): ${last.slice(0, 500)}`));
      }
    });
  });
}

/** Peak RSS of this process in bytes (getrusage maxRSS is in KiB on Linux). */
export function selfMaxRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Peak RSS of another process (VmHWM from /proc), bytes; 0 where /proc is unavailable. */
export function procMaxRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One line about the machine and its load, for result headers. */
export function machineLine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${cpus.length} x ${cpus[0]?.model.trim() ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}, load average ${load}`;
}

export function table(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(' | ')} |`;
  return [line(header), `|${w.map((n, i) => (i === 0 ? '-'.repeat(n + 2) : `${'-'.repeat(n + 1)}:`)).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}

export const fmt = (x: number | undefined, digits = 3) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
export const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
export function num(x: number): string {
  if (x >= 100) return Math.round(x).toLocaleString('en-US');
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

export function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** RSS by kind of mapping of a process (this one by default), from /proc/<pid>/smaps. */
export function rssByMapping(pid: number | 'self' = 'self'): { anon: number; heap: number; lmdb: number; files: number } {
  const out = { anon: 0, heap: 0, lmdb: 0, files: 0 };
  for (const [name, bytes] of residentBytesByMapping(pid)) {
    const kind: keyof typeof out =
      name === '' || name.startsWith('[anon') || name.startsWith('[stack')
        ? 'anon'
        : name === '[heap]'
          ? 'heap'
          : name.endsWith('data.mdb')
            ? 'lmdb'
            : 'files';
    out[kind] += bytes;
  }
  return out;
}
