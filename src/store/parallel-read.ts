// Reads of a file at explicit positions, a large range into shared memory by several threads at
// once: a disk (a virtual disk, an SSD) gives several reads in flight more throughput than one
// sequential reader, and an index snapshot of millions of passages is gigabytes. The calling
// thread reads chunks too and blocks until every chunk is in; helper threads (worker_threads,
// started on the first large read, ended by close()) claim chunks from a shared counter.
// Invariants: each byte of a range is read once, from its own file position, into its own place;
// read() returns only when every chunk is written, and throws when a read failed or the file ended
// short; a helper that starts late or never leaves its chunks to the others (no read waits on a
// helper that claimed nothing).
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
} as const;

/** PARALLEL_READ's bounds for one reader (tests), and whether the calling thread reads chunks too (default true). */
export interface FileReaderOptions {
  from?: number;
  chunk?: number;
  helpers?: number;
  callerReads?: boolean;
}

/** What one large read shares with its helpers. */
interface Job {
  buffer: SharedArrayBuffer;
  offset: number;
  length: number;
  position: number;
  chunk: number;
  /** Int32Array over: [0] the next chunk to claim, [1] the chunks finished, [2] a failure (1: the file ends short, 2: another error) */
  control: SharedArrayBuffer;
}

// the words of a job's control (claimChunks spells them as numbers: its source runs in the helpers)
const FINISHED = 1;
const FAILED = 2;

/**
 * Claims chunks of `job` until none is left, reading each whole from `fd`; counts each finished
 * (failed ones too, with the failure noted). Self-contained: the helpers run its source.
 */
function claimChunks(files: typeof fs, fd: number, job: Job): void {
  const control = new Int32Array(job.control);
  const chunks = Math.ceil(job.length / job.chunk);
  for (;;) {
    const i = Atomics.add(control, 0, 1);
    if (i >= chunks) return;
    const from = i * job.chunk;
    const into = new Uint8Array(job.buffer, job.offset + from, Math.min(job.chunk, job.length - from));
    try {
      for (let at = 0; at < into.length; ) {
        const n = files.readSync(fd, into, at, into.length - at, job.position + from + at);
        if (n === 0) {
          Atomics.store(control, 2, 1);
          break;
        }
        at += n;
      }
    } catch {
      Atomics.compareExchange(control, 2, 0, 2);
    }
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

const HELPER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const claimChunks = ${claimChunks.toString()};
const fd = fs.openSync(workerData.path, 'r');
parentPort.on('message', (job) => claimChunks(fs, fd, job));
`;

/** Reads of one open file at explicit positions; close() ends its helpers (not the file). */
export class FileReader {
  private helpers: Worker[] = [];

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
      control: new SharedArrayBuffer(12),
    };
    for (const helper of this.started()) helper.postMessage(job);
    if (this.opts.callerReads !== false) claimChunks(fs, this.fd, job);
    const control = new Int32Array(job.control);
    const chunks = Math.ceil(job.length / job.chunk);
    for (let seen = Atomics.load(control, FINISHED); seen < chunks; seen = Atomics.load(control, FINISHED)) {
      if (Atomics.wait(control, FINISHED, seen, PARALLEL_READ.stallMs) === 'timed-out' && Atomics.load(control, FINISHED) === seen)
        throw new Error(`${this.path}: no read finished in ${PARALLEL_READ.stallMs} ms`);
    }
    const failed = Atomics.load(control, FAILED);
    if (failed === 1) throw short();
    if (failed !== 0) throw new Error(`${this.path}: a read failed`);
  }

  /** Ends the helper threads. */
  close(): void {
    for (const helper of this.helpers) void helper.terminate();
    this.helpers = [];
  }

  private started(): Worker[] {
    if (this.helpers.length === 0)
      for (let i = 0; i < (this.opts.helpers ?? PARALLEL_READ.helpers); i++) {
        const helper = new Worker(HELPER_SOURCE, { eval: true, workerData: { path: this.path } });
        helper.unref();
        // a helper that fails leaves its chunks to the others; one that dies holding a chunk fails the read (stallMs)
        helper.on('error', () => {});
        this.helpers.push(helper);
      }
    return this.helpers;
  }
}
