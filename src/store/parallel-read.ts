// Reads of a file at explicit positions, a large range into shared memory by several threads at
// once: a disk (a virtual disk, an SSD) gives several reads in flight more throughput than one
// sequential reader, and an index snapshot of millions of passages is gigabytes. The calling
// thread reads chunks too and blocks until every chunk is in; helper threads (worker_threads,
// started on the first large read, ended by close()) claim chunks from a shared counter. A range
// the page cache does not hold (a few pages of it read and timed first) is read past the cache
// where the file system allows it (Linux's O_DIRECT), into a buffer of each thread's own at aligned
// positions, then copied into place: read once at open, a snapshot as large as the machine's free
// memory passed through the page cache made the system evict and compact memory for every page it
// gave the reader, while one the cache holds is read from it fastest (bench/RESULTS.md).
// Invariants: each byte of a range is read once, from its own file position, into its own place;
// read() returns only when every chunk is written, and throws when a read failed or the file ended
// short; a helper that starts late or never leaves its chunks to the others (no read waits on a
// helper that claimed nothing); a chunk whose direct read the system refuses is read through the
// page cache, and that thread reads so from then on.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

export const PARALLEL_READ = {
  /** Ranges of at least this many bytes, into a SharedArrayBuffer, are read by several threads. */
  from: 64 * 2 ** 20,
  /** The bytes each claim reads. */
  chunk: 16 * 2 ** 20,
  /** Helper threads beside the caller: four reads in flight gave about twice one reader's sustained throughput (bench/RESULTS.md), eight less. */
  helpers: 3,
  /** A read with no chunk finished for this long fails (a helper that died holding a chunk). */
  stallMs: 60_000,
  /** Whether chunks are read past the page cache (O_DIRECT, where the file system allows it): always, never, or for a range it does not hold. */
  direct: 'uncached' as DirectReads,
  /** Pages of a range read through the cache and timed first, spread over it: the range is held when at least half answer within cachedMicros. */
  probes: 16,
  cachedMicros: 25,
  /** The alignment of a direct read's file position, length and buffer (the largest logical block size of common disks). */
  align: 4096,
} as const;

/** When a large range is read past the page cache (PARALLEL_READ.direct). */
export type DirectReads = 'always' | 'uncached' | 'never';

/** PARALLEL_READ's bounds for one reader (tests), and whether the calling thread reads chunks too (default true). */
export interface FileReaderOptions {
  from?: number;
  chunk?: number;
  helpers?: number;
  callerReads?: boolean;
  /** When chunks are read past the page cache (default PARALLEL_READ.direct). */
  direct?: DirectReads;
}

/** What one large read shares with its helpers. */
interface Job {
  buffer: SharedArrayBuffer;
  offset: number;
  length: number;
  position: number;
  chunk: number;
  /** Whether its chunks are read past the page cache (where the thread can) */
  direct: boolean;
  /** Int32Array over: [0] the next chunk to claim, [1] the chunks finished, [2] a failure (1: the file ends short, 2: another error), [3] the chunks read past the page cache */
  control: SharedArrayBuffer;
}

/** A thread's reads of the file: its descriptor through the page cache, and past it (-1: none) with an aligned buffer. */
interface Reads {
  fd: number;
  directFd: number;
  align: number;
  /** The buffer direct reads go to, and where in it a read may start (an address aligned to `align`). */
  bounce?: Buffer;
  at: number;
}

// the words of a job's control (claimChunks spells them as numbers: its source runs in the helpers)
const FINISHED = 1;
const FAILED = 2;
const DIRECT_READS = 3;

/**
 * Claims chunks of `job` until none is left, reading each whole; counts each finished (failed ones
 * too, with the failure noted). Self-contained: the helpers run its source.
 */
function claimChunks(files: typeof fs, reads: Reads, job: Job): void {
  const control = new Int32Array(job.control);
  const chunks = Math.ceil(job.length / job.chunk);
  for (;;) {
    const i = Atomics.add(control, 0, 1);
    if (i >= chunks) return;
    const from = i * job.chunk;
    const into = new Uint8Array(job.buffer, job.offset + from, Math.min(job.chunk, job.length - from));
    try {
      // the bytes of the chunk read: past the page cache (-1: not, or refused), else through it
      let got = job.direct && reads.directFd >= 0 ? readDirect(files, reads, into, job.position + from) : -1;
      if (got >= 0) Atomics.add(control, 3, 1);
      else
        for (got = 0; got < into.length; ) {
          const n = files.readSync(reads.fd, into, got, into.length - got, job.position + from + got);
          if (n === 0) break;
          got += n;
        }
      if (got < into.length) Atomics.compareExchange(control, 2, 0, 1);
    } catch {
      Atomics.compareExchange(control, 2, 0, 2);
    }
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

/**
 * Reads `into` from `position` past the page cache: returns into.length, or fewer when the file ends
 * first (nothing then written), or -1 when the system refuses (the descriptor is then closed, and
 * the thread reads through the cache). Self-contained, and declares no function (the helpers run
 * its source).
 */
function readDirect(files: typeof fs, reads: Reads, into: Uint8Array, position: number): number {
  const align = reads.align;
  const from = position - (position % align);
  const want = position + into.length - from;
  const size = Math.ceil(want / align) * align;
  try {
    if (!reads.bounce || reads.bounce.length < size + align) {
      reads.bounce = Buffer.allocUnsafeSlow(size + align);
      // the first offset whose address the system takes for a direct read (an ArrayBuffer's
      // address is not given to JavaScript)
      reads.at = -1;
      for (let at = 0; at < align && reads.at < 0; at += 16) {
        try {
          files.readSync(reads.directFd, reads.bounce, at, align, 0);
          reads.at = at;
        } catch {}
      }
      if (reads.at < 0) throw new Error('no aligned address');
    }
    let got = 0;
    while (got < want) {
      const n = files.readSync(reads.directFd, reads.bounce, reads.at + got, size - got, from + got);
      got += n;
      // a direct read ends short only at the end of the file
      if (n === 0 || got % align !== 0) break;
    }
    if (got < want) return Math.max(got - (position - from), 0);
    into.set(reads.bounce.subarray(reads.at + position - from, reads.at + want));
    return into.length;
  } catch {
    files.closeSync(reads.directFd);
    reads.directFd = -1;
    reads.bounce = undefined;
    return -1;
  }
}

/** A descriptor of `file` for reads past the page cache, or -1 where the system has none or refuses it (or `mode` is never). Self-contained. */
function openDirect(files: typeof fs, file: string, mode: DirectReads): number {
  const flag = files.constants.O_DIRECT;
  if (mode === 'never' || !flag) return -1;
  try {
    return files.openSync(file, files.constants.O_RDONLY | flag);
  } catch {
    return -1;
  }
}

const HELPER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const claimChunks = ${claimChunks.toString()};
const readDirect = ${readDirect.toString()};
const openDirect = ${openDirect.toString()};
const reads = { fd: fs.openSync(workerData.path, 'r'), directFd: openDirect(fs, workerData.path, workerData.direct), align: workerData.align, at: 0 };
parentPort.on('message', (job) => {
  if (job !== 'close') return claimChunks(fs, reads, job);
  // descriptors belong to the process, not the thread: closed before the helper ends
  fs.closeSync(reads.fd);
  if (reads.directFd >= 0) fs.closeSync(reads.directFd);
  parentPort.close();
});
`;

/** Whether timed reads of single pages say their range is held by the page cache: at least half answered within PARALLEL_READ.cachedMicros. */
export function mostlyCached(micros: readonly number[]): boolean {
  return 2 * micros.filter((m) => m <= PARALLEL_READ.cachedMicros).length >= micros.length;
}

/** Reads of one open file at explicit positions; close() ends its helpers (not the file `fd`). */
export class FileReader {
  private helpers: Worker[] = [];
  /** Chunks read past the page cache so far, by every thread. */
  directChunks = 0;
  /** The calling thread's reads (its direct descriptor opened on the first large read). */
  private reads?: Reads;

  constructor(
    private readonly path: string,
    private readonly fd: number,
    private readonly opts: FileReaderOptions = {},
  ) {}

  /** Fills `into` whole from the file at `position`, or throws `short` when the file ends first. */
  read(into: Uint8Array, position: number, short: () => Error): void {
    const from = this.opts.from ?? PARALLEL_READ.from;
    if (!(into.buffer instanceof SharedArrayBuffer) || into.length < from) {
      for (let at = 0; at < into.length; ) {
        const n = fs.readSync(this.fd, into, at, into.length - at, position + at);
        if (n === 0) throw short();
        at += n;
      }
      return;
    }
    const job: Job = {
      buffer: into.buffer,
      offset: into.byteOffset,
      length: into.length,
      position,
      chunk: this.opts.chunk ?? PARALLEL_READ.chunk,
      direct: this.direct === 'always' || (this.direct === 'uncached' && !this.cached(position, into.length)),
      control: new SharedArrayBuffer(16),
    };
    for (const helper of this.started()) helper.postMessage(job);
    if (this.opts.callerReads !== false) {
      this.reads ??= { fd: this.fd, directFd: openDirect(fs, this.path, this.direct), align: PARALLEL_READ.align, at: 0 };
      claimChunks(fs, this.reads, job);
    }
    const control = new Int32Array(job.control);
    const chunks = Math.ceil(job.length / job.chunk);
    for (let seen = Atomics.load(control, FINISHED); seen < chunks; seen = Atomics.load(control, FINISHED)) {
      if (Atomics.wait(control, FINISHED, seen, PARALLEL_READ.stallMs) === 'timed-out' && Atomics.load(control, FINISHED) === seen)
        throw new Error(`${this.path}: no read finished in ${PARALLEL_READ.stallMs} ms`);
    }
    this.directChunks += Atomics.load(control, DIRECT_READS);
    const failed = Atomics.load(control, FAILED);
    if (failed === 1) throw short();
    if (failed !== 0) throw new Error(`${this.path}: a read failed`);
  }

  /**
   * Ends the helper threads, each once it has closed its descriptors (resolved when all have
   * ended), and closes the calling thread's direct descriptor.
   */
  close(): Promise<void> {
    const ended = this.helpers.map(
      (helper) => new Promise<void>((resolve) => (helper.threadId < 0 ? resolve() : helper.once('exit', () => resolve()))),
    );
    for (const helper of this.helpers) {
      // held until it ends (a few milliseconds), so that the promise is kept
      helper.ref();
      helper.postMessage('close');
    }
    this.helpers = [];
    if (this.reads && this.reads.directFd >= 0) fs.closeSync(this.reads.directFd);
    this.reads = undefined;
    return Promise.all(ended).then(() => undefined);
  }

  private get direct(): DirectReads {
    return this.opts.direct ?? PARALLEL_READ.direct;
  }

  /** Whether the page cache holds most of `length` bytes at `position`: PARALLEL_READ.probes pages spread over them, read and timed. */
  private cached(position: number, length: number): boolean {
    const page = Buffer.alloc(PARALLEL_READ.align);
    const micros: number[] = [];
    for (let k = 0; k < PARALLEL_READ.probes; k++) {
      const at = position + Math.floor(((k + 0.5) * length) / PARALLEL_READ.probes);
      const started = process.hrtime.bigint();
      fs.readSync(this.fd, page, 0, page.length, at - (at % PARALLEL_READ.align));
      micros.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    return mostlyCached(micros);
  }

  private started(): Worker[] {
    if (this.helpers.length === 0)
      for (let i = 0; i < (this.opts.helpers ?? PARALLEL_READ.helpers); i++) {
        const helper = new Worker(HELPER_SOURCE, {
          eval: true,
          workerData: { path: this.path, direct: this.direct, align: PARALLEL_READ.align },
        });
        helper.unref();
        // a helper that fails leaves its chunks to the others; one that dies holding a chunk fails the read (stallMs)
        helper.on('error', () => {});
        this.helpers.push(helper);
      }
    return this.helpers;
  }
}
