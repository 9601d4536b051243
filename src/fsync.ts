// Durable file-system steps shared by the stores and the model cache: fsync of a file's contents or
// of a directory's entries (so a rename or a new file survives a power cut). Throws what fs throws.
import fs from 'node:fs';

function fsyncAt(target: string, flags: string): void {
  const fd = fs.openSync(target, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Flushes a directory's entries (after creating, renaming or removing something in it). */
export function fsyncDir(dir: string): void {
  fsyncAt(dir, 'r');
}

/** Flushes a file's contents. */
export function fsyncFile(file: string): void {
  fsyncAt(file, 'r+');
}
