// The ops every worker knows. Add new ops (encode, search, ...) here.
// Invariants: imported once per worker, before the first task; registration
// order does not matter.

import { encodeOp } from './segment/encode-op.js';
import { registerOp } from './runtime/op-registry.js';
import { scanOp } from './runtime/scan-op.js';
import { searchOp } from './ranking/search-op.js';
import { buildOp, mergeOp } from './segment/ops.js';

registerOp('scan', scanOp);
registerOp('encode', encodeOp);
registerOp('build', buildOp);
registerOp('merge', mergeOp);
registerOp('search', searchOp);
