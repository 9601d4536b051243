// Pool worker: instantiates the kernels once on the shared memory received in
// workerData and dispatches each task to its registered op.
// Invariants: handler errors never escape as thread errors; they come back as
// a TaskReply carrying a WireError (class name + code) that the pool rebuilds.

import { workerData } from 'node:worker_threads';
import { errorToWire } from './runtime/errors.js';
import { type OpContext, getOp } from './runtime/op-registry.js';
import './ops.js';
import type { EngineWorkerData, TaskEnvelope, TaskReply } from './runtime/pool.js';
import { WasmKernels } from './runtime/kernels.js';

const data = workerData as EngineWorkerData;
const ctx: OpContext = { kernels: new WasmKernels(data.module, data.memory), shared: data.shared };

export default async function handleTask(task: TaskEnvelope): Promise<TaskReply> {
  try {
    return { ok: true, value: await getOp(task.op)(ctx, task.args) };
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}
