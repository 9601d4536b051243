// A small tmpfs for storage-fault tests, mounted in a private mount namespace so nothing on the
// host is touched: a holder process keeps the namespace (and the tmpfs) alive; servers started
// with `prefix` run inside it and see the tmpfs at `dir`; the test reads and writes it through
// `/proc/<holder>/root<dir>` (`hostPath`). Needs unshare/nsenter and the right to mount a tmpfs
// (root, or unprivileged user namespaces); `openFaultFs` resolves to a reason string otherwise.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface FaultFs {
  /** The mount point, as servers in the namespace see it. */
  dir: string;
  /** Prefix of a command that runs it in the namespace. */
  prefix: string[];
  /** The same path seen from this process. */
  hostPath(p?: string): string;
  /** Fills the file system up to its last byte with a file `filler`. */
  fill(): void;
  /** Removes the filler. */
  unfill(): void;
  /** Remounts the tmpfs read-only (true) or read-write (false); every file must be closed for read-only. */
  readOnly(on: boolean): void;
  close(): void;
}

export async function openFaultFs(dir: string, size: string): Promise<FaultFs | string> {
  const root = process.getuid?.() === 0;
  const userNs = root ? [] : ['-r'];
  let holder: ChildProcess;
  try {
    holder = spawn(
      'unshare',
      [
        ...userNs,
        '-m',
        '--propagation',
        'private',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${size} tmpfs '${dir}' && echo ready && exec sleep 3600`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (err) {
    return `cannot run unshare: ${(err as Error).message}`;
  }
  const ready = await new Promise<string | true>((resolve) => {
    let err = '';
    holder.on('error', (e) => resolve(`cannot run unshare: ${e.message}`));
    holder.stderr!.on('data', (d) => (err += d));
    holder.stdout!.on('data', (d) => String(d).includes('ready') && resolve(true));
    holder.on('exit', () => resolve(`cannot mount a tmpfs in a private namespace: ${err.trim() || 'unshare exited'}`));
  });
  if (ready !== true) return ready;
  const pid = holder.pid!;
  const prefix = ['nsenter', '-t', String(pid), ...(root ? [] : ['-U', '--preserve-credentials']), '-m', '--'];
  const hostPath = (p = '') => path.join(`/proc/${pid}/root`, dir, p);
  const inNs = (args: string[]) => execFileSync(prefix[0], [...prefix.slice(1), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    dir,
    prefix,
    hostPath,
    fill() {
      const fd = fs.openSync(hostPath('filler'), 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x66);
      try {
        for (let size = chunk.length; size >= 512; ) {
          try {
            fs.writeSync(fd, chunk, 0, size);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
            size >>= 1;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    unfill() {
      fs.rmSync(hostPath('filler'), { force: true });
    },
    readOnly(on: boolean) {
      inNs(['mount', '-o', `remount,${on ? 'ro' : 'rw'}`, dir]);
    },
    close() {
      holder.kill('SIGKILL');
    },
  };
}
