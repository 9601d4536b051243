// Helpers of the model-source tests: small model versions the engine can load (the shipped model's
// manifest and parameters re-written under another version, without its dense tables, plus a few
// small extra files so downloads and verification have bytes to check), a server started on a
// given SVC_MODEL_URI whose JSON logs are kept for assertions, and listings of a cache folder.
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import type { RunningServer } from '../../src/api/server.js';
import { defaultModelUri } from '../../src/config.js';
import { type Manifest, readModelFolder, writeModelFolder } from '../../src/engine/model/index.js';
import { type Api, startTestServer } from './server.js';

/** Deterministic bytes (so two model versions built by the tests differ only by their version). */
export function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

export const EXTRA_FILES: Record<string, number> = { 'extra/table-a.bin': 200_000, 'extra-b.bin': 1_000 };

/**
 * Writes model `svc-mh@<version>` into `dir`: the shipped model's parameters, no dense tables,
 * EXTRA_FILES. Its encoder is named by `encoder` (by default the version, so each version has its
 * own): a stop word no text holds, which changes the encoder's identity and nothing it encodes.
 */
export function makeModelVersion(dir: string, version: string, encoder = version): Manifest {
  const { manifest } = readModelFolder(defaultModelUri());
  const { files: _files, ...rest } = manifest;
  const { dense: _dense, ...shipped } = manifest.params;
  const params = { ...shipped, stop: [...shipped.stop, `encoder-${encoder}`] };
  const files = new Map<string, Uint8Array>();
  let seed = 7;
  for (const [name, n] of Object.entries(EXTRA_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    files.set(name, bytes(n, seed++));
  }
  return writeModelFolder(dir, { ...rest, version, params, created_at: new Date(0).toISOString() }, files);
}

/** Every file of a folder, relative, sorted. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

export interface LoggedServer {
  server: RunningServer;
  api: Api;
  logs: Array<Record<string, any>>;
  close(): Promise<void>;
}

/** A real server on port 0 for `modelUri`, its logs (JSON objects) collected; closed at teardown. */
export async function startOn(
  t: { teardown(fn: () => unknown): void },
  opts: { modelUri: string; dataDir: string; cache?: string; logs?: Array<Record<string, any>> },
): Promise<LoggedServer> {
  const logs = opts.logs ?? [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const env: Record<string, string> = { SVC_MODEL_URI: opts.modelUri, SVC_LOG: 'info' };
  if (opts.cache) env.SVC_MODEL_CACHE = opts.cache;
  const { server, api, close } = await startTestServer(t, { dataDir: opts.dataDir, env, logger });
  return { server, api, logs, close };
}

export function messages(logs: Array<Record<string, any>>): string[] {
  return logs.map((l) => l.msg as string);
}

/** Ingests a few documents into a new store `docs` and checks one search finds its target. */
export async function seedStore(api: Api): Promise<void> {
  await api.post('/stores', { name: 'docs' });
  const documents = Array.from({ length: 40 }, (_, i) => ({
    id: `d${i}`,
    text: `Document ${i} talks about the subject zq${i} in some detail.`,
    metadata: { i },
  }));
  await api.post('/stores/docs/documents', { documents });
}
