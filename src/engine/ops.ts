// The ops every worker knows. Add new ops (encode, search, ...) here.
// Invariants: imported once per worker, before the first task; registration
// order does not matter.

import { encodeOp } from './encode-op.js';
import { registerOp } from './op-registry.js';
import { scanOp } from './scan-op.js';
import { searchOp } from './search-op.js';
import { buildOp, mergeOp } from './segment-ops.js';

registerOp('scan', scanOp);
registerOp('encode', encodeOp);
registerOp('build', buildOp);
registerOp('merge', mergeOp);
registerOp('search', searchOp);
