// The model source's entry: SVC_MODEL_URI to a verified local model folder (a local path as is; an
// s3:// or gs:// version folder downloaded into the model cache, or verified there).
export { type ModelLog, ModelSourceError, type ResolveOptions, resolveModel } from './resolve.js';
