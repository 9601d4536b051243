// A real `svc serve` as a separate process (bin/svc.js, the compiled dist/), for tests that kill
// it, restart it, or run two of them: started on port 0, ready once it prints its API address.
// `prefix` runs it under another command (nsenter into a test mount namespace); `api` retries a
// 429 after its Retry-After, so checks that walk a whole store are paced by the rate limit
// instead of failing on it.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Api, REPO, type Reply } from './server.js';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  api: Api;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit (a clean shutdown). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  /** Resolves with stderr once it matches `re` (rejects if the server exits first). */
  waitForStderr(re: RegExp): Promise<string>;
}

/** Tries of a write refused as cluster_unavailable before PacedApi returns the refusal. */
const CLUSTER_RETRIES = 10;

export interface ChildOptions {
  args?: string[];
  env?: Record<string, string>;
  prefix?: string[];
}

/**
 * An Api whose calls wait out what the server says to retry after (Retry-After) and try again, as
 * the errors' fix tells clients: 429 rate_limited always, and 503 cluster_unavailable (nothing was
 * written: a stream electing its leader after a NATS server stopped) at most CLUSTER_RETRIES times.
 */
export class PacedApi extends Api {
  override async raw(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    let unavailable = 0;
    for (;;) {
      const r = await super.raw(method, p, body, headers);
      if (r.status === 503 && r.body?.error?.type === 'cluster_unavailable') unavailable++;
      else if (r.status !== 429) return r;
      if (unavailable >= CLUSTER_RETRIES) return r;
      await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get('retry-after') ?? 1)));
    }
  }

  override with(headers: Record<string, string>): PacedApi {
    return new PacedApi(this.base, { ...this.defaultHeaders, ...headers });
  }
}

function spawnServer(dataDir: string, opts: ChildOptions): { child: ChildProcess; out: { stdout: string; stderr: string } } {
  const cmd = [
    ...(opts.prefix ?? []),
    process.execPath,
    path.join(REPO, 'bin', 'svc.js'),
    'serve',
    '--port',
    '0',
    ...(opts.args ?? ['--no-auth']),
  ];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_')));
  const child = spawn(cmd[0], cmd.slice(1), {
    env: { ...env, SVC_DATA_DIR: dataDir, SVC_LOG: 'warn', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  return { child, out };
}

/** Starts a server; rejects (with its output) if it exits before it is ready. */
export function startChild(dataDir: string, opts: ChildOptions = {}): Promise<ChildServer> {
  const { child, out } = spawnServer(dataDir, opts);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /API at (http:\/\/\S+\/v1)/.exec(out.stdout);
      if (!m) return;
      child.stdout!.off('data', onData);
      const waitForStderr = async (re: RegExp) => {
        while (!re.test(out.stderr)) {
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited before printing ${re}: ${out.stderr}`);
          await new Promise((res) => setTimeout(res, 20));
        }
        return out.stderr;
      };
      resolve({
        child,
        url: m[1],
        api: new PacedApi(m[1]),
        stdout: () => out.stdout,
        stderr: () => out.stderr,
        exited,
        stop: () => end('SIGTERM'),
        kill: () => end('SIGKILL'),
        waitForStderr,
      });
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) =>
      reject(
        Object.assign(new Error(`server exited (${code ?? signal}) before it was ready: ${out.stderr}`), { code, stderr: out.stderr }),
      ),
    );
  });
}

/** Runs `svc serve` expecting it to fail before it is ready: its exit code and output (`started`
 * when it did get ready instead; it is then killed). */
export async function failingChild(
  dataDir: string,
  opts: ChildOptions = {},
): Promise<{ code: number | null; started: boolean; stderr: string; stdout: string }> {
  const { child, out } = spawnServer(dataDir, opts);
  let started = false;
  child.stdout!.on('data', () => {
    if (!started && /API at /.test(out.stdout)) {
      started = true;
      child.kill('SIGKILL');
    }
  });
  const { code } = await new Promise<{ code: number | null }>((resolve) => child.once('exit', (c) => resolve({ code: c })));
  return { code, started, ...out };
}
