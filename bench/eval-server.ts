// What the suite runners (eval.ts, eval-answers.ts) share: reading a suite folder, a server to talk
// to (the one at --url, or a fresh one on port 0 with a temp data dir and the given or shipped
// model, removed by stop()), a JSON call that throws on any 4xx/5xx, waiting until a store has
// settled (its merges done), a restart on the same data dir, and ingest of a corpus into a new store
// in batches. Invariants: the
// temp data dir never outlives stop(); a store of the same name is dropped first, so a run never
// measures leftovers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startServer } from '../src/api/server.js';
import { loadConfig } from '../src/config.js';
import { untitledCorpus } from '../src/train/untitled.js';
import type { Doc, Query } from './bench-util.js';

export type Call = (method: string, p: string, body?: unknown) => Promise<any>;

const readJsonl = <T>(p: string): T[] =>
  fs
    .readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/** A suite folder of ../shared/bench: its SUITE.json, corpus and queries. */
/** A suite's documents as a user's often come: without their titles (src/train/untitled.ts). */
export function untitledDocs(docs: Doc[]): Doc[] {
  return untitledCorpus(docs.map((d) => ({ ...d, metadata: d.metadata ?? {} })));
}

export function readSuite(dir: string): { name: string; corpus: Doc[]; queries: Query[] } {
  const suiteDir = path.resolve(dir);
  const suite = JSON.parse(fs.readFileSync(path.join(suiteDir, 'SUITE.json'), 'utf8')) as { name: string; corpus: string };
  return {
    name: suite.name,
    corpus: readJsonl<Doc>(path.resolve(suiteDir, suite.corpus)),
    queries: readJsonl<Query>(path.join(suiteDir, 'queries.jsonl')),
  };
}

export interface EvalServer {
  call: Call;
  stop: () => Promise<void>;
  settle: (store: string) => Promise<number>;
  /** Restarts an in-process server on its data dir (a remote one is left as it is). */
  restart: () => Promise<void>;
}

export async function evalServer(opts: { url?: string; model?: string }): Promise<EvalServer> {
  let base = opts.url;
  let stop = async () => {};
  let restart = async () => {};
  // A remote server's merges are not visible: give it the idle delay and a merge's time.
  let settle = async (_store: string) => {
    await new Promise((r) => setTimeout(r, 5000));
    return 5;
  };
  if (!base) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-eval-'));
    const env: NodeJS.ProcessEnv = { SVC_DATA_DIR: dataDir, SVC_LOG: 'silent', ...(opts.model ? { SVC_MODEL_URI: opts.model } : {}) };
    const start = () =>
      startServer({ config: loadConfig(env), port: 0, host: '127.0.0.1', noAuth: true, rateLimit: 1e9, logger: pino({ level: 'silent' }) });
    let server = await start();
    base = server.url;
    settle = (store) => waitSettled(server.services.registry.entry('default', store).open?.index);
    stop = async () => {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    restart = async () => {
      await server.close();
      server = await start();
      base = server.url;
    };
  }
  const call: Call = async (method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.status === 204 ? undefined : await res.json();
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { call, stop, settle, restart };
}

/** Waits until an in-process store index has no merge running or due; returns the seconds waited. */
export async function waitSettled(index: unknown): Promise<number> {
  const t0 = performance.now();
  while ((index as { settled?: boolean } | undefined)?.settled === false) await new Promise((r) => setTimeout(r, 20));
  return (performance.now() - t0) / 1000;
}

/** Creates `store` afresh and ingests `corpus` in batches; returns the seconds the ingest took. */
export async function ingestCorpus(call: Call, store: string, corpus: Doc[], batch: number): Promise<number> {
  await call('DELETE', `/stores/${store}`).catch(() => undefined);
  await call('POST', '/stores', { name: store });
  const t0 = performance.now();
  for (let i = 0; i < corpus.length; i += batch) {
    await call('POST', `/stores/${store}/documents`, {
      documents: corpus.slice(i, i + batch).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })),
    });
  }
  return (performance.now() - t0) / 1000;
}
