// The types the ranking modules share: the analysed question and the per-search state features read,
// a hop's candidates, chains and stages, the loop's output, and the `search` op's task and result.
// Plain interfaces only; the code that builds them lives in hops.ts, stages.ts, loop.ts and
// search-op.ts.

/** The terms a read passage adds to a later hop's scan (hops.ts expansion), with their weights and positions in it. */
export interface Expansion {
  terms: number[];
  weights: number[];
  positions: number[];
}

/** A document title a term sequence mentions (phrases.ts titleHits; read-only: titles may share one). */
export interface TitleHit {
  /** Terms in the mention. */
  len: number;
  /** Share of capitalised tokens in the mention. */
  capfrac: number;
  /** Position of the first mention (terms after `skip`). */
  pos: number;
  /** Whether the full title (not only the base title) was mentioned. */
  full: boolean;
  /** Phrase key of the mention (for its mention count). */
  key: number;
  /** Terms of the mention (for its mention count; shared by the titles one window names: do not modify). */
  terms: Uint32Array;
}

/** What features need from the question (built once per search). */
export interface QueryFeatureContext {
  qt: number[];
  qidf: number[];
  qset: Set<number>;
  /** index of each question term in qt */
  qindex: Map<number, number>;
  qidfSum: number;
  hits: Map<number, TitleHit>;
  /** the best rows by s, best first */
  order: number[];
  /** 0-based rank of a row by s, capped at the ranking's rank cap */
  rankOf(row: number): number;
  /** max of s, s_body, s_title over every row (floored at 1e-6) */
  sMax: [number, number, number];
  s: Float32Array;
  sBody: Float32Array;
  sTitle: Float32Array;
  /** phrase mention counts, title sizes and hop-1 feature vectors, cached per search */
  mentions: Map<number, number>;
  titleSizes: Map<number, number>;
  f1: Map<number, Float64Array>;
  /** which question terms (by index in qt) a row's passage holds; memoised */
  present(row: number): Uint8Array;
  /** learned weight of each question term (1 when the model has none), aligned with qt */
  qw: number[];
  /** question bigrams (adjacent non-stop terms) and their weights */
  bigrams: Map<string, number>;
  /** capitalised question terms (not the first word) with their weights */
  capTerms: Map<number, number>;
  /** what the question asks for */
  asks: 'number' | 'date' | 'other';
  /** every question term, stop words included */
  allTerms: Set<number>;
  /** doc-level BM25 of a row's document over the best score of the pool's documents; memoised */
  docScore(row: number): number;
  /** cosine of the question's dense encoding with a row's, and with the row's document's centroid (0 without an encoder) */
  dense(row: number): number;
  docDense(row: number): number;
}

/** The analysed question of a search, with hop 1's scan (hops.ts `query`). */
export interface Query extends QueryFeatureContext {
  text: string;
  forms: string[];
  /** term id of every question token, and whether it is capitalised / a stop word */
  ids: Uint32Array;
  caps: boolean[];
  stops: boolean[];
  /** whether a bracket or a comma stands between the token and the one before it ("Devotion (1929 film)") */
  breaks: boolean[];
}

/**
 * A multi-word name of the question, as term ids, and its head: the name up to the first bracket or
 * comma inside it ("Devotion" of "Devotion (1929 Film)", "Krasnoye" of "Krasnoye, Prokhorovsky
 * District"), the whole name when it has none.
 */
export interface QuestionName {
  terms: Uint32Array;
  head: Uint32Array;
}

/** The passage read (p, the last of `reads`) and what hop-2 features need of it. */
export interface HopFeatureContext {
  reads: number[];
  links: Map<number, TitleHit>;
  earlier: Set<number>;
  beam: ReadonlySet<number>;
  /** score the read passage's terms add to a row */
  e(row: number): number;
  eMax: number;
  s2: Float32Array;
  s2Max: number;
  /** 0-based rank of a row by s2, capped at the ranking's rank cap */
  rank2Of(row: number): number;
  p: number;
  pTerms: Set<number>;
  pBodyLength: number;
  pTitle: Uint32Array;
  pBaseLen: number;
  pTitleKey: number;
  /** which question terms the passages read hold, and their coverage */
  readPresent: Uint8Array;
  readQcov: number;
}

/** Rows a hop proposes, with their feature vectors. */
export interface Candidates {
  rows: number[];
  features: Float64Array[];
}

/** A later hop's candidates from the passages read, with the expansion terms it searched and the titles the last passage names. */
export interface HopNext extends Candidates {
  expansion: number[];
  links: Map<number, TitleHit>;
}

/** Why a row was read: the query's words, the rare words of the passage before it, or a title it names. */
export type Why =
  | { kind: 'query'; terms: number[] }
  | { kind: 'expansion'; fromRow: number; positions: number[] }
  | { kind: 'link'; fromRow: number; positions: number[] };

export interface Hop1 {
  pool: number[];
  F1: Float64Array[];
  h1: number[];
  /** pool indices of the beam: the best pool row of each of the best documents */
  beam: number[];
  /** pool rows by h1, best first (ties to the earlier row): the stage-1 ranking every stage's list draws on */
  ranked: number[];
}

/** Chains with feature vectors, and per chain the coverage/link values and the why of its last step. */
export interface Chains {
  chains: number[][];
  X: Float64Array[];
  qcov: number[];
  lk: number[];
  /** the why of chain j's last step (stage 1 builds it when asked: only the trace reads it) */
  why: (j: number) => Why;
}

/** A stage as the sufficiency features read it: its chains with scores and the result list assembled from them. */
export interface Stage {
  chains: number[][];
  scores: number[];
  /** returned rows (best first) and the hop of each */
  ret: number[];
  hops: number[];
  /** per chain: question coverage and whether its last step is a title link */
  qcov: number[];
  lk: number[];
}

/** A stage's result list (assemble.ts). */
export interface Assembled {
  ret: number[];
  hops: number[];
  /** per returned row, the chain whose score it carries */
  from: number[];
}

/** A passage of a returned list: its row, score, the hop that found it and, for a later hop's, the row before it in its chain (assemble.ts). */
export interface Listed {
  row: number;
  score: number;
  hop: number;
  prev?: number;
}

export interface LoopHit {
  row: number;
  score: number;
  hop: number;
  /** term ids of the words to highlight in the passage (marks.ts) */
  marks: number[];
}

export interface LoopOutput {
  hits: LoopHit[];
  hopsUsed: number;
  /** the stage whose list is returned: 1 when every passage was found by the question alone */
  stage: number;
  confidence: number;
  /** set when hop 1's list is returned held by one long document (stages.ts heldByOneDocument: the loop stops there, and calibrates apart) */
  oneDocument?: boolean;
  /** the trace, with each hop's time in the worker (ms) and how many passages or chains it scored */
  steps: Array<{ hop: number; row: number; why: Why; ms: number; candidates: number }>;
}

/** One segment of a search's snapshot, as the worker reads it. */
export interface SnapshotSegment {
  /** the segment's process-unique id: where its terms' postings lie is remembered across searches (term-ranges.ts); absent: looked up per search */
  id?: number;
  base: number;
  dead: number;
  /** each row's tie key (u32, its document id's hash): SearchCorpus.tieOrder */
  keys: number;
  /** an image past the kernels' memory: its rows' body then title lengths there (f32[nRows] each); else 0 or absent */
  lens?: number;
  nRows: number;
  /** rows flagged dead when the snapshot was taken (0: none, document frequencies need no check) */
  deadRows?: number;
}

export interface CorpusStats {
  rows: number;
  avgBody: number;
  avgTitle: number;
  /** average body length of a whole document (sum over its passages) */
  avgDoc: number;
}

/** A field scanned into a score buffer, its BM25 scaled by `scale`. */
export interface ScanTarget {
  field: 'body' | 'title';
  scores: number;
  scale: number;
}

/**
 * Touched-row marks of a scan (u8 per global row), the list of marked rows it extends and the terms
 * that only add to marked rows.
 */
export interface ScanMarks {
  ptr: number;
  /** u32[totalRows]: the rows marked so far are list[0..listed); a scan appends the rows it marks */
  list: number;
  listed: number;
  restrict?: readonly boolean[];
  /** scratch of 12 · SCAN.rowScanTerms bytes: with it (not 0), restricted terms may be read from the listed rows (rows-scan.ts) */
  terms?: number;
  /** 'always': read the restricted terms from the listed rows whatever it costs (tests); default by cost */
  byRows?: 'auto' | 'always';
  /** scratch with which the terms not restricted may touch segment by segment, spread over an idle worker (scan-segments.ts); without it, on this thread */
  touch?: TouchScratch;
}

/** A touching scan's scratch: u32[totalRows] each segment lists its rows in (in its own rows of it), and u32[SCAN.touchCounts]: how many each call listed in each segment. */
export interface TouchScratch {
  list: number;
  counts: number;
}

/** Score buffers (byte pointers of f32[totalRows]), touched-row scratch and top-k scratch (buffers.ts). */
export interface HopBuffers {
  sBody: number;
  sTitle: number;
  s: number;
  s2: number;
  /** u8[totalRows] marks of the rows hop 1 touched, and of those a later hop touched */
  mark: number;
  mark2: number;
  /** laid-out bytes of each f32 row buffer and of each mark buffer (at least 4 · totalRows, totalRows) */
  rowBytes: number;
  markBytes: number;
  /** u32[totalRows] row list and two f32[totalRows] gather buffers */
  idx: number;
  g: number;
  g2: number;
  topIdx: number;
  topScores: number;
  /** how many entries topIdx and topScores hold */
  topCap: number;
  /** 12 · SCAN.rowScanTerms bytes for rows-scan.ts (terms, weights, counts) */
  rowTerms: number;
  /** u32[histogram bins] for rank estimates */
  hist: number;
  /** u32[SCAN.stagePostings] per lane of a spread scan (WORKERS.assist.lanes; lane 0 first): a term's postings in an image past the kernels' memory, copied in for the kernels (corpus-scan.ts, scan-segments.ts) */
  stage: number;
  /** u32[SCAN.touchCounts]: a touching scan's counts (TouchScratch; its list is g2) */
  touchCounts: number;
  /** f32[knownCap]: hop 1's scores at the rows it listed, gathered once a search (question-scan.ts known) */
  known: number;
  knownCap: number;
  /** denseScratchBytes(dim) for encoding the question (unused without an encoder) */
  dense: number;
}

/** The touched-row list (u32[totalRows]) and two f32[totalRows] gather buffers (touched-rows.ts). */
export interface RowSetBuffers {
  idx: number;
  g: number;
  g2: number;
  /** what g holds now: the scores of `ptr` as gathered by `by`, the TouchedRows that gathered into it last */
  gHolds?: { by: object; ptr: number };
}

/** What the `search` op receives (search-op.ts). */
export interface SearchTask {
  query: string;
  maxHops: number;
  maxResults: number;
  /** see the engine's SearchParams.lead */
  lead?: number;
  trace: boolean;
  segments: SnapshotSegment[];
  stats: CorpusStats;
  /** u8 per global row, 1 = excluded by the filter; 0 = no filter. */
  blocked: number;
  scratch: number;
  /** 'exact' scores every row; 'approximate' prunes common terms; absent: approximate above the params' row count */
  scan?: 'exact' | 'approximate';
  /** postings an approximate scan reads in full (default: the params' scan budget) */
  scanBudget?: number;
  /** postings from which a scan spreads its segments over an idle worker (default: SCAN.spreadPostings; ranking/scan-segments.ts) */
  spreadPostings?: number;
  /** whether `scratch` is clean for this layout (buffers.ts cleanTag), as the main thread kept it */
  scratchClean?: boolean;
  /** scan into clean scratch and hand it back clean (default: above the params' cleanRows rows); false: zero and mask every row's buffers */
  keepClean?: boolean;
}

export interface RawStep {
  hop: number;
  seg: number;
  row: number;
  /** the step's why, with the row it came from as [segment, row] */
  why: Why & { from?: [number, number] };
  ms: number;
  candidates: number;
}

export interface SearchTaskResult {
  hits: Array<{ seg: number; row: number; score: number; hop: number; marks: number[] }>;
  hopsUsed: number;
  stage: number;
  confidence: number;
  steps: RawStep[];
  /** whether the search handed its scratch back clean (buffers.ts cleanTag) */
  scratchClean: boolean;
}
