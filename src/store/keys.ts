// API keys, kept in `<dataDir>/keys.json`. Invariants: the file never holds a secret, only the
// SHA-256 of each key; a key is `svc_<id>_<secret>` and is shown once, at creation; verification
// looks the record up by id and compares hashes in constant time; every change is written to a
// temp file, fsynced and renamed over the old file under an exclusive lock file, so a running server
// (which re-reads the file whenever it changes on disk) and concurrent `svc keys` runs never see a
// half-written file. Revoked keys stay listed with their revocation time.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface KeyRecord {
  id: string;
  prefix: string;
  project: string;
  sha256: string;
  created_at: string;
  revoked_at: string | null;
}

interface KeyFile {
  version: 1;
  keys: KeyRecord[];
}

const KEY_RE = /^svc_([a-z2-7]{8})_([a-z2-7]{40})$/;

function base32(bytes: Buffer, n: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[bytes[i] & 31];
  return s;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** The id of a token of the key form (`svc_<id>_<secret>`), or undefined. */
export function keyId(token: string): string | undefined {
  return KEY_RE.exec(token)?.[1];
}

/** Whether `token` is the key `rec` was made from (hashes compared in constant time). */
export function keyMatches(rec: KeyRecord, token: string): boolean {
  return timingSafeEqual(Buffer.from(rec.sha256, 'hex'), sha256(token));
}

/** A new key for `project` and its record (which holds only the key's hash); nothing is written. */
export function newKey(project: string): { key: string; record: KeyRecord } {
  const id = base32(randomBytes(8), 8);
  const key = `svc_${id}_${base32(randomBytes(40), 40)}`;
  const record: KeyRecord = {
    id,
    prefix: key.slice(0, 12),
    project,
    sha256: sha256(key).toString('hex'),
    created_at: new Date().toISOString(),
    revoked_at: null,
  };
  return { key, record };
}

export class KeyNotFoundError extends Error {
  constructor(what: string) {
    super(`no API key matches ${what}`);
    this.name = 'KeyNotFoundError';
  }
}

export class KeyRing {
  readonly file: string;
  private keys: KeyRecord[] = [];
  private stamp = '';

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'keys.json');
    this.reloadIfChanged();
  }

  /** Re-reads the key file when it changed on disk (new inode, size or mtime). */
  private reloadIfChanged(): void {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.file);
    } catch {
      this.keys = [];
      this.stamp = '';
      return;
    }
    const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (stamp === this.stamp) return;
    const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as KeyFile;
    this.keys = parsed.keys;
    this.stamp = stamp;
  }

  /** The project of a valid, unrevoked key, or null. */
  verify(token: string): string | null {
    const m = KEY_RE.exec(token);
    if (!m) return null;
    this.reloadIfChanged();
    const rec = this.keys.find((k) => k.id === m[1]);
    if (!rec || rec.revoked_at) return null;
    return keyMatches(rec, token) ? rec.project : null;
  }

  list(): KeyRecord[] {
    this.reloadIfChanged();
    return this.keys.map((k) => ({ ...k }));
  }

  activeCount(): number {
    return this.list().filter((k) => !k.revoked_at).length;
  }

  /** Creates a key for `project`; the returned `key` is the only time the secret exists. */
  create(project: string): { key: string; record: KeyRecord } {
    const { key, record } = newKey(project);
    this.update((keys) => [...keys, record]);
    return { key, record };
  }

  /** Revokes a key given as the full key or as its id. */
  revoke(keyOrId: string): KeyRecord {
    const m = KEY_RE.exec(keyOrId);
    const id = m ? m[1] : keyOrId;
    let revoked: KeyRecord | undefined;
    this.update((keys) =>
      keys.map((k) => {
        if (k.id !== id || (m && !timingSafeEqual(Buffer.from(k.sha256, 'hex'), sha256(keyOrId)))) return k;
        revoked = { ...k, revoked_at: k.revoked_at ?? new Date().toISOString() };
        return revoked;
      }),
    );
    if (!revoked) throw new KeyNotFoundError(m ? `${keyOrId.slice(0, 12)}…` : `id ${keyOrId}`);
    return revoked;
  }

  private update(fn: (keys: KeyRecord[]) => KeyRecord[]): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const release = acquireFileLock(`${this.file}.lock`);
    try {
      this.stamp = '';
      this.reloadIfChanged();
      const next: KeyFile = { version: 1, keys: fn(this.keys) };
      const tmp = `${this.file}.tmp-${process.pid}`;
      const fd = fs.openSync(tmp, 'w', 0o600);
      fs.writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(tmp, this.file);
      this.stamp = '';
      this.reloadIfChanged();
    } finally {
      release();
    }
  }
}

/** A short-lived exclusive lock file; one older than 10 s is considered abandoned. */
function acquireFileLock(file: string): () => void {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(file, 'wx'));
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - fs.statSync(file).mtimeMs > 10_000) fs.rmSync(file, { force: true });
      } catch {
        // removed meanwhile
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the key file lock ${file}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}
