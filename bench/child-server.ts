// A server in a child process, as a user runs it (`bin/svc.js serve --no-auth` of a build: this
// checkout, or another one's with its `dist/` built), for the benches that measure a whole server
// from outside: its readiness time, RSS, and requests over HTTP. Invariant: stop() waits for the
// child's exit, so the next server on the same data dir never meets the last one's lock.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_DIR } from './bench-util.js';

export interface Running {
  child: ChildProcess;
  /** the API's base URL, `http://127.0.0.1:PORT/v1` */
  base: string;
  /** ms from spawn to a ready /v1/health */
  readyMs: number;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The resident set of a process, in MiB. */
export const rssMiB = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};

/** `build`'s server on `dataDir` (env added to this process's), once its /v1/health answers 200. */
export async function serve(build: string, dataDir: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(build, 'bin', 'svc.js'), 'serve', '--no-auth', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: build,
      env: { ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}/v1`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${build}: the server exited (${child.exitCode})`);
    const ok = await fetch(`${base}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, base, readyMs: performance.now() - started };
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Stops the server with `signal` (SIGTERM: a clean shutdown; SIGKILL: a crash) and waits for its exit. */
export async function stop(r: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((resolve) => r.child.once('exit', resolve));
  r.child.kill(signal);
  await exited;
}

/** One request; a 429 (the per-project rate limit, which building a thousand stores meets) waits its Retry-After and is sent again. */
export async function call(base: string, method: string, p: string, body?: unknown): Promise<unknown> {
  for (;;) {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 429) {
      await res.text();
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : res.json();
  }
}

/** The server's Prometheus samples (GET /metrics), keyed by name and label string: `svc_stores_open`, `svc_store_passages{project="default",store="s"}`. */
export async function scrape(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(base.replace(/\/v1$/, '/metrics'))).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/**
 * Waits until no engine task (a merge, the idle merge after the last write included) has been in
 * flight for `quietMs`, sampled every 100 ms; returns the seconds waited.
 */
export async function waitQuiet(base: string, quietMs = 3000): Promise<number> {
  const t0 = performance.now();
  let quietSince = performance.now();
  for (;;) {
    if ((await scrape(base)).get('svc_engine_tasks_in_flight') !== 0) quietSince = performance.now();
    else if (performance.now() - quietSince >= quietMs) return (quietSince - t0) / 1000;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The builds a whole-server bench compares, labelled: another checkout's (`--baseline`, built) first, then this one. */
export function comparedBuilds(baseline: string | undefined): Array<[label: string, build: string]> {
  return [...(baseline ? [['baseline', path.resolve(baseline)] as [string, string]] : []), ['this build', REPO_DIR]];
}
