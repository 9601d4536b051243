// The engine's tuned constants, in one place. Each was chosen by measurement (the comment says what
// it trades); none is learned (learned weights ship in the model folder) and none is a format
// constant (byte layouts keep theirs beside the code that writes them). Changing a ranking constant
// changes the candidates and features the model was trained on: retrain (`npm run train`) and
// compare `npm run eval` before and after. The scales written inside a feature's definition (a cap
// of 6 on a mention's length, say) belong to that feature and live in its table.

/** How many rows each hop considers. */
export const HOPS = {
  /** hop 1's pool: the best rows by BM25 re-ranked by the hop-1 model (plus the rows of titles the question names) */
  pool: 40,
  /** ranks are exact up to here and estimated beyond (histograms); also the largest top-k a search lists */
  rankCap: 1000,
  /** rows taken from the top of a scan before the documents already read are excluded, grown by topTakeGrowth while too few remain */
  topTake: 64,
  topTakeGrowth: 4,
  /** candidates a later hop takes from its scan */
  nextCandidates: 20,
  /** hop 1's best rows a later hop also proposes */
  questionCandidates: 10,
  /** rows taken per title the question names, and per title a read passage names */
  hitPerTitle: 3,
  linkPerTitle: 2,
  /**
   * Titles whose rows a hop adds as candidates, at most (the best mentions first): bounds a hop's
   * work when a passage names many titles (a corpus of many near-identical titles). On the dev
   * suites the caps never bind.
   */
  hitTitles: 16,
  linkTitles: 24,
} as const;

/** The loop's stages. */
export const STAGES = {
  /** documents of stage 1 that stage 2 extends into chains, and 2-chains that stage 3 extends */
  beam2: 5,
  beam3: 5,
  /**
   * How much more confident a deeper stage must be to be returned instead of a shallower one: the
   * calibrated confidences of the stages are estimates, and taking the largest as is favours deeper
   * stages by chance. Measured over HTTP: it lifts squad-articles-dev hit@1 and costs the multi-hop
   * suites' all-gold@10 under 0.01.
   */
  margin: 0.05,
  /**
   * When stage 1 is returned although a chain stage ran, its first `keepStage1` passages stay as
   * they are and the chain stage's documents are woven into the rest (assemble.ts `weave`). At 5 a
   * single-passage answer in hop 1's first five stays where it was (docs/architecture.md).
   */
  keepStage1: 5,
  /**
   * The loop stops after hop 1 when hop 1's first `oneDocument` passages all lie in one long
   * document read whole (RESULT_LIST.longDoc passages or more; not a section of a longer one): the
   * question is about that document, and the sufficiency models, fitted on stores of short
   * documents, cannot tell so. Chains from such a list lead to other documents (a chain never stays
   * inside its first document) and put a passage of another one at the head of the list. Measured
   * on SQuAD's held-out fold against 3 passages and against no such stop (docs/generalisation.md).
   */
  oneDocument: 2,
} as const;

/** How a stage's result list is assembled (assemble.ts). */
export const RESULT_LIST = {
  /**
   * A chain stage lists, right after its top chain, those of hop 1's best `keepLong` passages that
   * lie in a long document (`longDoc` passages or more): in a store of whole articles the passages
   * the question itself matches best are mostly in one article, and a chain stage must not push
   * them down for the next chains.
   */
  keepLong: 3,
  longDoc: 4,
  /** a passage sharing more than this share of the shorter of the two with a listed passage of its document is not listed */
  maxOverlap: 0.25,
} as const;

/** What features read of text. */
export const FEATURE_TEXT = {
  /** average sentence length (terms) the sentence-level BM25 assumes */
  sentenceAvg: 25,
  /** longest title mention looked for (terms) */
  maxPhrase: 12,
  /**
   * A mention of a base title (a title without its trailing parenthetical) that more titles than
   * this share names none of them by its base (phrases.ts titleHits): it does not say which one it
   * means, and a hop would otherwise read every one of their passages as linked. No base title of
   * the training data is shared by nearly as many.
   */
  maxBaseTitles: 32,
  /** a phrase whose rarest term has at most this many postings has its mentions counted exactly; above, that term's df stands in */
  exactMentions: 100,
  /**
   * The whole-document features (BM25 of the document, cosine with its centroid) read at most this
   * many passages of a document, centred on the passage scored: a book or a manual stored as one
   * document costs a bounded amount per passage, not its whole length. Documents of this many
   * passages or fewer are read whole (every document of the training suites is).
   */
  docWindow: 256,
  /**
   * Centroids of windows of at least this many passages are remembered across a worker's searches
   * (window-centroids.ts): the sum costs one pass over the window's vectors, in JavaScript; shorter
   * ones are summed for each search that reads them.
   */
  keptWindowRows: 16,
  /** Window centroids a worker remembers (each dimension times 8 bytes), the least recently read dropped first. */
  keptWindows: 2048,
  /**
   * A passage that opens with a question's name may hold this many words between two of the name's
   * ("David Yuryevich Dzakhov" opens a passage about "David Dzakhov"; sufficiency's name_held_ret).
   */
  nameGap: 2,
} as const;

/** How a document's title is found when its metadata has none (text/title.ts). */
export const TITLES = {
  /** a first line of at most this many characters (and no final punctuation) is the title */
  maxLine: 100,
  /** a first sentence's subject of at most this many words is the title of a document with no title line */
  subjectWords: 8,
  /**
   * A document longer than this (characters) is read as the sections under its heading lines
   * (text/sections.ts): FEATURE_TEXT.docWindow passages of the longest (MAX_PASSAGE), so such a
   * document always has more than docWindow passages and its sections are the loop's units of
   * evidence. Every document of the training data is shorter.
   */
  sectionChars: 256 * 1200,
  /**
   * A document shorter than sectionChars is read as sections when it has at least this many
   * heading lines (a title line and two headings under it), most of them naming their sections
   * and its title not naming them throughout (text/sections.ts). No document of the training data
   * has as many.
   */
  minHeadings: 3,
  /** A heading names its section when one of its words of at least this many characters, not a stopword, recurs in it. */
  namingWord: 3,
  /**
   * A heading's word of at least this many characters also names its section through a word
   * there that shares its start up to its last namingEnding characters, and at least this many
   * ("Armenia" and "Armenian"); a shorter one ("Use", "user") must recur or share its stem.
   */
  namingPrefix: 5,
  /** How many characters at the end of a heading's word an inflection or a derivation may change ("Geology", "geologists"). */
  namingEnding: 2,
  /** How far into its section (characters) a heading's word is looked for: a passage's length. */
  namingChars: 1200,
  /**
   * A text with fewer heading lines is read by its entries (paragraphs that open by naming their
   * subject, "Nantong is a city ...": text/sections.ts) when at least this share of its paragraphs
   * open one: an encyclopaedia or a glossary stored without headings, where most entries open so.
   * A novel's paragraphs (dialogue, narration) and an article's (most of them go on about one
   * subject, "In 1990, the band ...") open so far more rarely.
   */
  entryShare: 0.25,
} as const;

/**
 * A document's passages overlap (each takes in the sentences after it, text/passages.ts), so
 * analyze.ts analyzePassages tokenizes the text under consecutive passages once, at most
 * `groupChars` characters of it at a time, and gives each passage its part: a bound on what one
 * tokenization holds (its forms and offsets) when one text holds thousands of passages.
 */
export const ANALYSIS = {
  groupChars: 1 << 17,
} as const;

/**
 * The text analysis's caches, per thread (text/analyze.ts, text/tokenize.ts): a form's term id and
 * its stem, and a run's folded forms (a run with a character outside ASCII, or longer than a
 * token), kept once computed and all dropped when a cache holds this many. Each form
 * costs about 134 bytes over the first two, each run about 150 in the third, so these bound a
 * thread's caches at about 14 MiB however many distinct words a corpus has; computing a stem and an
 * id again is cheap beside the rest of the analysis (docs/memory.md, "The text caches").
 */
export const TEXT_CACHES = {
  termIds: 1 << 16,
  stems: 1 << 15,
  folds: 1 << 15,
} as const;

/** How scans read postings and reduce score buffers. */
export const SCAN = {
  /**
   * Stores with more rows than this search approximately by default: a scan reads in full the
   * postings of its rarest terms, up to `budget` postings, and adds the other terms only to the
   * rows those touched (rows holding none of the rare terms are not scored). Below it every scan is
   * exact.
   */
  approximateRows: 250_000,
  budget: 1 << 15,
  /** reductions run over the touched rows only when they are at most 1/sparseShare of the rows */
  sparseShare: 8,
  /**
   * Stores with more rows than this keep a search's per-row scratch clean between searches
   * (ranking/buffers.ts): hop 1 scans into buffers already zero, sums, masks and copies only the
   * rows it listed, and zeroes those when the search ends, instead of zeroing, summing, masking and
   * copying every row's buffers (about 40 bytes a row a search). Rows dead or filtered out that no
   * scan touched then read 0 rather than -Infinity, as the reductions over touched rows already
   * count them. Below it, and in training, every buffer is zeroed and masked whole.
   */
  cleanRows: 250_000,
  /**
   * The restricted terms of hop 1's approximate scan are read from the touched rows' term sequences
   * rather than from their postings (ranking/rows-scan.ts) when the rows' length, times the terms
   * and this cost, is below the postings' count; at most rowScanTerms terms per kernel call. A row's
   * token is compared with every term, a posting only reads a mark: the cost was chosen on the scale
   * bench's stores (bench/RESULTS.md, "Hop 1 on the rows it touched").
   */
  rowScanCost: 16,
  rowScanTerms: 32,
  /**
   * Postings of a term in an image past the kernels' memory (runtime/regions.ts) are copied into the
   * search's scratch this many at a time, and each chunk scanned by the kernels (ranking/corpus-scan.ts):
   * a copy is a memcpy, far cheaper than the scan it feeds.
   */
  stagePostings: 65536,
  /**
   * A scan's terms are spread over an idle worker a segment each (ranking/scan-segments.ts) once
   * they hold this many postings: below it, waking a helper costs about what it saves.
   */
  spreadPostings: 1 << 17,
  /**
   * What a touching scan's posting counts for against spreadPostings: it writes its row's score, mark
   * and list entry at random where a posting added to marked rows mostly reads a mark (the ratio of
   * their kernels' time a posting on the scale bench's largest store: bench/RESULTS.md, "touching
   * scans spread sooner").
   */
  touchSpreadCost: 16,
  /** Counts a touching scan spread by segment keeps (terms × fields × segments: HopBuffers.touchCounts); a scan past it touches on one thread. */
  touchCounts: 4096,
  /** bins of the score histograms behind rank estimates */
  histBins: 2048,
  /** snapshots and terms per snapshot whose posting ranges a worker remembers (term-ranges.ts) */
  rangeSnapshots: 8,
  rangeTerms: 1 << 16,
} as const;

/** The store index's segments (main thread). */
export const SEGMENTS = {
  /** documents per segment built when a store opens */
  loadChunk: 4096,
  /** a store with no write for this long merges its small segments into one */
  idleMs: 1000,
  /** rows an idle merge takes, at most (bounds its memory however large the store) */
  idleMergeRows: 1 << 18,
  /** an idle merge runs when the other small segments hold at least 1/idleMergeRatio of the largest's rows */
  idleMergeRatio: 8,
  /** segments per size tier (powers of 4 of their row count) that trigger a tiered merge */
  mergeFactor: 6,
  /** a segment with more than this share of dead rows is merged */
  deadRatio: 0.5,
  /** a tiered merge the worker pool had no room for (a full queue) is tried again after this long */
  busyRetryMs: 250,
} as const;

/** The engine's memory (SVC_ENGINE_MEMORY_MB bounds it). */
export const MEMORY = {
  /**
   * An ingest is refused (StoreIndex.reserve) when its segments would leave less than
   * max(headroomBytes, 1/headroomShare of the memory in use) available: the room every search's
   * scratch and the background merges need, so that a full store still answers searches.
   */
  headroomBytes: 16 * 2 ** 20,
  headroomShare: 8,
  /**
   * The memory's relocation (runtime/memory.ts relocate, runtime/pool.ts): WebAssembly memory
   * never shrinks, so the pages a merge's sources and result held at once, or a deleted store's
   * index, stay resident. Once the pool has run no task for idleMs (checked every checkMs) and the
   * memory has been written in at least max(minFreeBytes, minFreeShare of what was written) more
   * than its live blocks hold (WasmHeap.idleBytes), the blocks are copied, at the same addresses,
   * into a fresh memory (with the engine stopped for the copy: at most maxCopyBytes of them) and
   * every thread lets the old one go; SVC_ENGINE_RELOCATE_MB sets minFreeBytes. Every thread
   * collects its heap first, so that its garbage is not resident beside both memories; then the
   * new memory's pages are written, touchSliceBytes at a time between other work (a page's first
   * touch costs more than its copy); the move is given up if a task comes meanwhile, and each
   * move given up doubles the idle time the next one waits for, up to maxIdleMs. Each worker
   * waits at most adoptWaitMs for the others at the barrier that sends one `collect` and one
   * `adopt` task to each (adopt.ts). A move that would take the process's RSS (after the
   * collections) plus the live blocks past maxPeakShare of its memory bound (its control group's
   * limit, or the machine's memory: src/memory-limit.ts) is given up: it would hold both memories
   * at once where there is no room for them. minFreeShare bounds what a move copies per byte it gives
   * back (under six bytes); a large store's merge high-water mark is a smaller share of its memory
   * than a small store's.
   */
  relocate: {
    checkMs: 1000,
    idleMs: 2000,
    maxIdleMs: 64_000,
    minFreeBytes: 32 * 2 ** 20,
    minFreeShare: 0.15,
    maxCopyBytes: 2 ** 31,
    touchSliceBytes: 8 * 2 ** 20,
    adoptWaitMs: 1000,
    maxPeakShare: 0.9,
  },
  /**
   * Task scratch (runtime/memory.ts freeScratch): a search's per-row buffers (about 30 bytes a row)
   * ended are kept live for the next task, at most `keep` blocks, and one is taken again for a task
   * needing down to 1/maxOversize of it. Freed, they were dropped by the eager discard below once
   * larger than its minBytes (stores past about half a million passages), and every search then
   * faulted its scratch in afresh.
   */
  scratch: {
    keep: 4,
    maxOversize: 2,
  },
  /**
   * A block of at least this many bytes (a search's scratch from about a million passages on, a
   * large segment's image, a region's row lengths) asks the system for huge pages under it while it
   * lives, where the native helper is built (memory.ts): a search reads and writes per-row buffers at
   * the rows it touches, scattered over tens of MiB, and with 4 KiB pages nearly every such access
   * misses the TLB. Measured at ten million passages (bench/RESULTS.md).
   */
  hugePagesFrom: 32 * 2 ** 20,
  /**
   * Free pages given back in place (runtime/memory.ts discardIdle, with the native helper of
   * runtime/page-discard.ts; where it is missing, relocation alone gives memory back). Whenever a
   * block is freed and the memory written and no longer in use has grown by minBytes since the last
   * pass, every free range of at least minRangeBytes (and the memory above the highest block, past
   * keepAboveTopBytes) has its written pages dropped: they leave the RSS at once, with no copy and
   * no second memory, and cost a page fault each when written again. The bounds keep a search's
   * scratch, freed and taken again at once, from being dropped and faulted in over and over. What
   * the workers decoded and built for the merges that freed those pages is garbage then: every
   * thread collects once idle (compact.afterDiscardedBytes). A pass drops at most sliceBytes at
   * once and the rest a slice a turn of the event loop after: dropping a large store's index at once
   * would hold the main thread (every request) up for as long as the system takes to unmap it.
   */
  discard: {
    minBytes: 16 * 2 ** 20,
    minRangeBytes: 2 ** 20,
    keepAboveTopBytes: 4 * 2 ** 20,
    sliceBytes: 256 * 2 ** 20,
  },
  /**
   * Every thread's collection (runtime/pool.ts collectEveryThread): before a move, and, with no move
   * to make, once the engine is idle (relocate.idleMs) after afterDiscardedBytes of pages were
   * dropped in place or the main thread's committed heap grew by afterGrowthBytes since the last
   * one (runtime/pool.ts collectAll). Each thread's collection repeats until its heap's committed
   * size falls by less than minGainBytes, at most maxRounds times (runtime/collect.ts
   * HeapCompaction): V8 evacuates only some fragmented pages per collection, and an ingest's or a
   * spell of searches' garbage leaves most old-space pages nearly empty. Each round is a full
   * collection of an idle thread's heap; with shrinkYoung and the native helper, one that also
   * shrinks the young generation to its least (collect.ts reduceHeap): a busy spell grows it to
   * its bound (WORKERS.youngGenMb for a worker), resident until then, and the next busy spell
   * grows it again as it needs.
   */
  compact: {
    shrinkYoung: true,
    afterDiscardedBytes: 32 * 2 ** 20,
    afterGrowthBytes: 32 * 2 ** 20,
    maxRounds: 4,
    minGainBytes: 2 ** 20,
  },
} as const;

/**
 * Regions of memory past the kernels' own (runtime/regions.ts): a segment image goes to the main
 * memory when the memory then holds at most mainShare of its bound in all (the rest is the room of
 * every task's scratch), else to further memories of at most 4 GiB each, created as needed, and
 * this whether or not regions were made before. SVC_ENGINE_MEMORY_MB bounds them all
 * together; by default they may span defaultShare of the process's memory bound
 * (src/memory-limit.ts), and never less than one memory's 4 GiB.
 */
export const REGIONS = {
  mainShare: 0.5,
  defaultShare: 0.75,
} as const;

/** The store index's document table (main thread). */
export const INDEX = {
  /** filters whose excluded rows (a byte per row of the store) a store index remembers for the current segments */
  blockedCache: 16,
  /** a filter is remembered when evaluating it took at least this long (ms); a cheaper one is evaluated again */
  rememberMs: 2,
  /**
   * A set of document slots the metadata index builds is a byte per slot of the store from this
   * many slots on, a Set below (index/slot-sets.ts): a byte array is a fast loop to build, intersect
   * and complement, a Set is smaller while few slots are in it.
   */
  slotBytesFrom: 4096,
  /**
   * A search whose returned or traced rows belong to documents replaced or deleted while it ran (or
   * whose metadata stopped matching its filter) is run again on a fresh snapshot at most this many
   * times (the last run drops those rows): under writes that never stop, a search costs at most
   * this many runs more.
   */
  staleRetries: 2,
} as const;

/** A store index's document table (index/doc-table.ts): its ids and metadata as bytes in one buffer. */
export const DOC_TABLE = {
  /** slots of an empty table's columns (its hash table has twice as many buckets) */
  initialSlots: 1024,
  /** bytes of an empty table's buffer */
  initialBytes: 64 * 1024,
  /** freed and replaced bytes are reclaimed once they are at least this many and outweigh the live ones */
  compactMinBytes: 1024 * 1024,
  /** a new buffer holds the live bytes times this, so that the next appends do not copy it again soon */
  slack: 1.5,
} as const;

/** Searches in scripts the model was not trained on (text/scripts.ts, ranking/confidence.ts). */
export const SCRIPTS = {
  /**
   * The most confidence a search may return when none of its words are in the model's scripts:
   * its evidence is lexical matching alone, which the confidence model never saw judged, so it
   * claims no more than even odds; the cap rises linearly with the share of words in the model's
   * scripts, to none when all are. Not fitted (no training question is in another script).
   */
  floor: 0.5,
} as const;

/** Encoding and the worker threads. */
export const WORKERS = {
  /** documents per encode task: small enough to spread a batch over the workers */
  encodeChunk: 125,
  /**
   * A document longer than this (characters) is encoded in pieces of about pieceChars each, on
   * every worker (index/encode.ts): no task of it holds a worker for long (a piece takes tens of
   * milliseconds), so a search waits little behind it. Smaller pieces cost more tasks: 64 KB ones
   * took a 30 MB document 1 s longer than 256 KB ones (bench/RESULTS.md).
   */
  largeDocChars: 1_000_000,
  pieceChars: 128_000,
  /**
   * Young-generation size of a worker's V8 heap, in MB, at most: bounded, so V8's sizing of it stops
   * at a known figure (bench/soak.ts), and large enough that what a search allocates (most of it
   * dead when the search ends) dies young. At 8 MB most of a search's working set outlived two
   * scavenges, was promoted, and full collections made the p99 (docs/architecture.md).
   */
  youngGenMb: 64,
  /** rows per tile of the dense scan op (the tile's scores stay in L1/L2) */
  scanTileRows: 4096,
  /**
   * The board over which a search spreads a scan's segments to an idle worker (runtime/assist.ts):
   * jobs open at once (one per searching worker is enough on a small machine), the numbers a job's
   * payload holds, the threads one job runs on (the owner and one helper: each helper lane needs a
   * stage of its own, HopBuffers.stage), and how long an owner waits for a helper's unit before it
   * fails the search (a unit is one segment's postings: milliseconds).
   */
  assist: {
    slots: 4,
    payloadWords: 1 << 16,
    lanes: 2,
    stallMs: 30_000,
  },
} as const;
