// How much of each mapping a process holds resident, from /proc/<pid>/smaps (Linux). An LMDB
// environment maps its whole data file and every read faults pages in (with the kernel's
// fault-around, up to 64 KiB at a time); they are clean file pages, counted in the process's RSS
// until the environment is closed. Invariant: read-only, and never throws: where /proc cannot be
// read (another system) the answer is empty, so nothing downstream acts on it.
import fs from 'node:fs';

const HEAD = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/;
const RSS = /^Rss:\s+(\d+) kB/;

/**
 * Resident bytes of every mapping of a process (this one by default), by the name /proc shows: a
 * file's path (symbolic links resolved), `[heap]`, `[stack]`, or '' for anonymous memory.
 */
export function residentBytesByMapping(pid: number | 'self' = 'self'): Map<string, number> {
  const out = new Map<string, number>();
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return out;
  }
  let name = '';
  for (const line of text.split('\n')) {
    const head = HEAD.exec(line);
    if (head) {
      name = head[1];
      continue;
    }
    const rss = RSS.exec(line);
    if (rss) out.set(name, (out.get(name) ?? 0) + Number(rss[1]) * 1024);
  }
  return out;
}
