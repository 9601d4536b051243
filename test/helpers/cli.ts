// Runs the `svc` command as users do: a separate process through bin/svc.js (which imports the
// compiled dist/), with a clean SVC_* environment. Refuses to run against a dist/ older than the
// client and CLI sources, since the test would then exercise stale code.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './server.js';

export const BIN = path.join(REPO, 'bin', 'svc.js');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : e.name.endsWith('.ts') ? fs.statSync(p).mtimeMs : 0);
  }
  return t;
}

/** Throws unless dist/ was built after the last change to src/client and src/cli. */
export function assertBuilt(): void {
  const built = ['cli/main.js', 'client/index.js'].map((f) => path.join(REPO, 'dist', f));
  const missing = built.find((f) => !fs.existsSync(f));
  const stale =
    !missing &&
    Math.min(...built.map((f) => fs.statSync(f).mtimeMs)) <
      Math.max(newest(path.join(REPO, 'src', 'client')), newest(path.join(REPO, 'src', 'cli')));
  if (missing || stale) throw new Error(`dist/ is ${missing ? 'missing' : 'older than src/'}: run 'npm run build:ts' before the CLI tests`);
}

export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_') && !k.startsWith('TAP')));
  return { ...clean, NO_COLOR: '1', ...env };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `svc` process whose output is collected as it comes. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly done: Promise<CliRun>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (this.stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    this.done = new Promise((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, stdout: this.stdout, stderr: this.stderr })),
    );
  }

  /** Resolves once stderr matches `re` (rejects if the process ends first). */
  async waitForStderr(re: RegExp): Promise<void> {
    while (!re.test(this.stderr)) {
      const ended = await Promise.race([this.done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20))]);
      if (ended && !re.test(this.stderr)) throw new Error(`svc exited before printing ${re}; stderr: ${this.stderr}`);
    }
  }
}

export function spawnCli(args: string[], env: Record<string, string | undefined>, opts: { cwd?: string; stdin?: string } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? REPO, env: cliEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(opts.stdin ?? '');
  return new CliProcess(child);
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; stdin?: string } = {},
): Promise<CliRun> {
  return spawnCli(args, env, opts).done;
}

/** A local port with nothing listening on it (bound, then released). */
export async function unusedPort(): Promise<number> {
  const net = await import('node:net');
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}
