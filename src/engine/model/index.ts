// The engine's model room: a model version folder (read and verified against its manifest's JSON
// schema and every file's hash, or written), the model's parameter types, placing its weight tables
// in shared memory, and the dense encoder. Reading a folder loads none of the ranking code; whether
// its weights fit the engine's features is checked where the engine starts (engine.ts).
export { cosineI8, DenseEncoder, denseScratchBytes, MAX_TERMS } from './dense-encoder.js';
export { ENGINE_FORMAT, ModelError, readModelFolder, sha256Hex, writeModelFolder } from './folder.js';
export { MANIFEST_SCHEMA, manifestProblem } from './manifest.js';
export { DENSE_FILES, encoderFingerprint, encoderId, loadModel, placeModel } from './place.js';
export type * from './types.js';
