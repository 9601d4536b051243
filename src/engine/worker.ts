// The engine's pool worker (a thread entry, loaded by the pool from engineWorkerUrl(), never
// imported): registers the ops every worker knows, instantiates the kernels once on the shared
// memory received in workerData and dispatches each task to its op.
// Invariants: the ops are registered before the first task; handler errors never escape as thread
// errors; they come back as a TaskReply carrying a WireError (class name + code) that the pool
// rebuilds.
import { workerData } from 'node:worker_threads';
import { searchOp } from './ranking/index.js';
import {
  type EngineWorkerData,
  errorToWire,
  getOp,
  type OpContext,
  registerOp,
  scanOp,
  type TaskEnvelope,
  type TaskReply,
  WasmKernels,
} from './runtime/index.js';
import { buildOp, encodeOp, mergeOp } from './segment/index.js';

registerOp('scan', scanOp);
registerOp('encode', encodeOp);
registerOp('build', buildOp);
registerOp('merge', mergeOp);
registerOp('search', searchOp);

const data = workerData as EngineWorkerData;
const ctx: OpContext = { kernels: new WasmKernels(data.module, data.memory), shared: data.shared };

export default async function handleTask(task: TaskEnvelope): Promise<TaskReply> {
  try {
    return { ok: true, value: await getOp(task.op)(ctx, task.args) };
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}
