// The model's types: the manifest of a model folder (manifest.ts holds its JSON schema, which
// checks every field below at load), the learned parameters it carries, and the model as the
// engine places it in shared memory. Plain data only: a ModelDescriptor crosses to every worker.

/** Parameters of the dense encoder (absent when the model has none). */
export interface DenseParams {
  dim: number;
  /** Vocabulary size: rows of the embedding table. */
  size: number;
}

/** BM25 parameters of the two fields, and the weight of the title field in a scan. */
export interface LexicalParams {
  k1: number;
  b: number;
  k1Title: number;
  bTitle: number;
  titleWeight: number;
}

/** How a later hop expands the question with the rare terms of the passage it read. */
export interface ExpansionParams {
  /** weight of a term from the passage's title line, a capitalised word, any other word */
  a_title: number;
  a_cap: number;
  a_body: number;
  /** terms kept, at most */
  M: number;
  /** a term in more than this share of passages is not taken */
  dfmax: number;
}

/** A stage's sufficiency model: logistic weights over the sufficiency features, then Platt scaling. */
export interface ConfParams {
  w: number[];
  b: number;
  platt_a: number;
  platt_b: number;
}

/**
 * Platt scaling of the confidence a search returns, σ(a·logit(c) + b): the loop returns the most
 * confident of the stages it ran, and the largest of several estimates runs high; this maps it
 * to the rate at which such returned confidences were right on questions the model never saw.
 */
export interface ReturnedCalibration {
  a: number;
  b: number;
}

/**
 * What scores a stage's evidence: a sufficiency model per stage for the confidence returned, the
 * models the loop decides by (whether to run another hop, which stage to return; absent: `conf`),
 * and the returned confidence's calibration.
 */
export interface Sufficiency {
  conf: ConfParams[];
  /** per stage, the sufficiency models the loop decides by (whether to run another hop, which stage to return); absent: `conf` */
  decide?: ConfParams[];
  /** calibration of the confidence returned (absent: returned as is) */
  returned?: ReturnedCalibration;
  /** calibration of the confidence of a search that returned hop 1's list held by one long document (ranking/stages.ts heldByOneDocument; absent: `returned`) */
  returnedOneDocument?: ReturnedCalibration;
}

/** The names of the features each weight vector was fitted on, in order (ranking/model-fit.ts checks them). */
export interface FeatureNames {
  /** hop 1's re-ranking of its pool */
  W1: string[];
  /** the rank of 2-chains and of 3-chains */
  W2: string[];
  W3: string[];
  /** every sufficiency model (questions' and keyword queries') */
  conf: string[];
}

/** The learned part of the model the search loop uses (params.search): its questions' sufficiency models and calibrations, and the rest. */
export interface LoopParams extends Sufficiency {
  /** learned question-term weights (term ids and weights); absent terms weigh 1 */
  theta?: { terms: number[]; weights: number[] };
  W1: number[];
  W2: number[];
  W3: number[];
  exp: ExpansionParams;
  /** per stage, the confidence (of `decide`) at which the loop stops */
  tau: number[];
  /** the sufficiency models and calibration of keyword queries (absent: those of questions serve them) */
  keywords?: Sufficiency;
  features: FeatureNames;
}

/** The native reader's re-ordering of the head of a one-hop result (answer/rerank.ts). */
export interface RerankParams {
  /** passages re-ordered at the head of a one-hop result */
  n: number;
  /** weights of the features named in `features` */
  w: number[];
  features: string[];
}

export interface ModelParams {
  stop: string[];
  /** Scripts of the text the model learnt from (text/scripts.ts); absent in models trained before it was recorded (then no search is capped for its script). */
  scripts?: string[];
  lexical: LexicalParams;
  dense?: DenseParams;
  /** Search-loop parameters: absent only while training builds the model that learns them. */
  search?: LoopParams;
  rerank?: RerankParams;
}

export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 'svc-model/1';
  name: string;
  version: string;
  engine: string;
  created_at?: string;
  dims: number;
  tokenizer: Record<string, unknown>;
  files: ManifestFile[];
  params: ModelParams;
  training?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
}

export interface LoadedModelFolder {
  dir: string;
  manifest: Manifest;
  files: Map<string, Buffer>;
}

/** The dense encoder's tables in shared memory (byte pointers). */
export interface DenseTables {
  dim: number;
  size: number;
  /** u32 [size]: term ids of the vocabulary, sorted; row i is the term vocab[i] */
  vocab: number;
  /** int8 [size x dim] */
  table: number;
  /** f32 [size]: row scales */
  scales: number;
  /** f32 [size]: learned term weights */
  weights: number;
}

/** The model at run time: plain data (parameters and table pointers) every worker receives once. */
export interface ModelDescriptor {
  name: string;
  version: string;
  /** What makes this model's encodings (place.ts encoderId): a store made by a model of the same encoder reads as it is. */
  encoder: string;
  /** The u32 stamped into every encoding and index snapshot made with this model: the first 32 bits of `encoder`. */
  fingerprint: number;
  params: ModelParams;
  dense?: DenseTables;
}

export interface LoadedModel {
  manifest: Manifest;
  descriptor: ModelDescriptor;
}
