// The engine's pool worker (a thread entry, loaded by the pool from engineWorkerUrl(); only a test's
// worker imports it, to add ops): registers the ops every worker knows and the kinds of job a search
// spreads over idle workers (runtime/assist.ts: it listens to their board between tasks),
// instantiates the kernels on the shared memory each task names (again only when the heap moved:
// runtime/adopt.ts) and dispatches each task to its op.
// Invariants: the ops are registered before the first task; handler errors never escape as thread
// errors; they come back as a TaskReply carrying a WireError (class name + code) that the pool
// rebuilds. The buffers an op declares as moving are transferred with its reply, not copied.
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { SEGMENT_SCAN, searchOp } from './ranking/index.js';
import {
  adoptOp,
  collectOp,
  type EngineWorkerData,
  errorToWire,
  getOp,
  type OpContext,
  registerAssist,
  registerOp,
  scanOp,
  type TaskEnvelope,
  type TaskReply,
  WorkerKernels,
} from './runtime/index.js';
import {
  assembleOp,
  buildOp,
  builtMoves,
  encodeMoves,
  encodeOp,
  encodePieceOp,
  mergeMoves,
  mergeOp,
  pieceMoves,
  readingOp,
} from './segment/index.js';

registerOp('adopt', adoptOp);
registerOp('collect', collectOp);
registerOp('scan', scanOp);
registerOp('encode', encodeOp, encodeMoves);
registerOp('reading', readingOp);
registerOp('encodePiece', encodePieceOp, pieceMoves);
registerOp('assemble', assembleOp, encodeMoves);
registerOp('build', buildOp, builtMoves);
registerOp('merge', mergeOp, mergeMoves);
registerOp('search', searchOp);
registerAssist(SEGMENT_SCAN);

const kernels = new WorkerKernels(workerData as EngineWorkerData);

export default async function handleTask(task: TaskEnvelope): Promise<TaskReply | ReturnType<typeof move>> {
  try {
    const { handler, moves } = getOp(task.op);
    const ctx: OpContext = kernels.contextFor(task);
    const reply: TaskReply = { ok: true, value: await handler(ctx, task.args) };
    if (!moves) return reply;
    // a shared buffer cannot move (and is never copied either)
    const buffers = [...new Set(moves(reply.value))].filter((b) => b instanceof ArrayBuffer);
    return move({ [transferableSymbol]: buffers, [valueSymbol]: reply });
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}
