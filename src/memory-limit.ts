// The most memory this process may hold: its control group's limit (cgroup v2 `memory.max`, or v1
// `memory.limit_in_bytes`, of the group /proc/self/cgroup names) or the machine's memory, whichever
// is lower. A move of the engine's memory holds the old and the new memory at once, so the pool
// gives up a move that would take the process past a share of it (engine/runtime/pool.ts); a store
// larger than a share of it is opened without readahead (store/store-env.ts). Invariant: read-only,
// never throws; an unreadable or absent limit (another system, no limit set) counts as none, and
// the machine's memory bounds it then.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Reads a limit file: a positive byte count, or undefined ("max", absent, unreadable). */
function readLimit(file: string): number | undefined {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The control group paths of this process, by hierarchy ('' for v2's unified one). */
function cgroupPaths(root: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const line of fs.readFileSync(path.join(root, 'proc/self/cgroup'), 'utf8').split('\n')) {
      const m = /^\d+:([^:]*):(.*)$/.exec(line);
      if (m) for (const c of m[1].split(',')) out.set(c, m[2]);
    }
  } catch {
    // not Linux: no control group
  }
  return out;
}

/** A control group's path and each of its ancestors' ('/a/b', '/a', ''): a parent's limit bounds its children. */
function withAncestors(p: string): string[] {
  const parts = p.split('/').filter(Boolean);
  return Array.from({ length: parts.length + 1 }, (_, i) => (i === parts.length ? '' : `/${parts.slice(0, parts.length - i).join('/')}`));
}

/**
 * This process's memory bound in bytes (see the header), read once per call. `root`: where /proc
 * and /sys are (a test's fake tree); `machine`: the machine's memory.
 */
export function memoryLimitBytes(root = '/', machine = os.totalmem()): number {
  const paths = cgroupPaths(root);
  const files: string[] = [];
  const unified = paths.get('');
  // inside a container the group's own folder is often the mount's root: the root's file is read too
  if (unified !== undefined) files.push(...withAncestors(unified).map((g) => `sys/fs/cgroup${g}/memory.max`));
  const v1 = paths.get('memory');
  if (v1 !== undefined) files.push(...withAncestors(v1).map((g) => `sys/fs/cgroup/memory${g}/memory.limit_in_bytes`));
  return Math.min(machine, ...files.flatMap((f) => readLimit(path.join(root, f)) ?? []));
}
