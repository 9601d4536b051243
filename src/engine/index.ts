// The engine's entry: everything code outside src/engine may use. The service (api/) loads a model
// folder and an engine and creates store indexes; the native reader (answer/) reads text with the
// engine's tokenizer; training (train/) runs the ranking in-process, on the very functions the
// workers run, to fit the model. The engine imports nothing from the layers above it.

// The service: the engine contract, the model folder.
export { engineWorkerUrl, loadEngine, loadModelFolder, startEngine } from './engine.js';
// Ranking run in-process (training fits the model on these; tests check them).
export { type InProcessDoc, InProcessStore } from './in-process.js';
// The metadata filter language (search filters, and the API's listing and deleting by filter), and
// the offsets of a passage's words to highlight.
export { compareCodePoints, compileFilter, filterSize, highlightSpans, type MetadataPredicate } from './index/index.js';
export type {
  ConfParams,
  DenseParams,
  ExpansionParams,
  FeatureNames,
  LoadedModelFolder,
  LoopParams,
  Manifest,
  ManifestFile,
  ModelParams,
  RerankParams,
  ReturnedCalibration,
  Sufficiency,
} from './model/index.js';
export { DENSE_FILES, ENGINE_FORMAT, MANIFEST_SCHEMA, ModelError, sha256Hex, writeModelFolder } from './model/index.js';
export type { Chains, Feature, LoopOutput, Query, SearchCorpus, Stage } from './ranking/index.js';
export {
  buildHop1,
  buildHop2,
  buildHop3,
  CHAIN2_NAMES,
  CHAIN3_NAMES,
  calibrationFor,
  computeFeatures,
  dotw,
  featureNames,
  H1_NAMES,
  H2_NAMES,
  hop1Chains,
  isQuestion,
  isQuestionWord,
  logit,
  modelFitProblem,
  namesDiffer,
  namesOf,
  QUESTION_WORDS,
  returnedConfidence,
  SUFFICIENCY_NAMES,
  stageOf,
  sufficiencyFeatures,
  sufficiencyFor,
  thetaOf,
} from './ranking/index.js';
export type { EngineRuntime } from './runtime/index.js';
// The runtime, for training's own kernels (the dense encoder's fitting) and benchmarks; and the
// test the service tells the engine memory's refusal apart by.
export { createEngineRuntime, isOutOfEngineMemory } from './runtime/index.js';
// Text: the tokenizer and term ids shared by the index, the reader and training; a document's title.
export {
  countScripts,
  documentTitle,
  FLAG_SENTENCE_START,
  hash32,
  mainScripts,
  stem,
  termId,
  termSeq,
  tokenize,
} from './text/index.js';
export type * from './types.js';
