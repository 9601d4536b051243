// How much of each mapped file this process holds resident, from /proc/self/smaps (Linux). An LMDB
// environment maps its whole data file and every read faults pages in (with the kernel's
// fault-around, up to 64 KiB at a time); they are clean file pages, counted in the process's RSS
// until the environment is closed. Invariant: read-only, and never throws: where /proc cannot be
// read (another system) the answer is empty, so nothing downstream acts on it.
import fs from 'node:fs';

const HEAD = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/;
const RSS = /^Rss:\s+(\d+) kB/;

/** Resident bytes of every file this process maps, by the path /proc shows (symbolic links resolved). */
export function residentBytesByFile(): Map<string, number> {
  const out = new Map<string, number>();
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return out;
  }
  let file: string | undefined;
  for (const line of text.split('\n')) {
    const head = HEAD.exec(line);
    if (head) {
      file = head[1].startsWith('/') ? head[1] : undefined;
      continue;
    }
    const rss = file && RSS.exec(line);
    if (rss) out.set(file!, (out.get(file!) ?? 0) + Number(rss[1]) * 1024);
  }
  return out;
}
