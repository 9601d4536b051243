// The engine's ranking room (worker side of a search, and training in-process): a search's view of
// a store snapshot (SearchCorpus), BM25, the hops, the named feature tables and the learned scorers
// over them, the stages and their result lists, the sufficiency features and calibrated confidence,
// the loop, the `search` op and the scan job it spreads over idle workers. Training fits the model on exactly these functions.
export { assemble, weave } from './assemble.js';
export { bestRows } from './best-rows.js';
export { bm25 } from './bm25.js';
export { cleanTag, hopBuffers, hopScratchBytes } from './buffers.js';
export { CHAIN2_NAMES, CHAIN3_NAMES, chain2Vector, chain3Vector } from './chain-features.js';
export { calibrationFor, chainOrder, confidence, logit, returnedConfidence } from './confidence.js';
export { SearchCorpus, snapshotOf } from './corpus.js';
export { computeFeatures, dotw, type Feature, namesOf } from './feature-table.js';
export { heldBy, presence, qcovOf } from './features-common.js';
export { H1, H1_NAMES, h1Features } from './hop1-features.js';
export { H2, H2_NAMES, h2Features } from './hop2-features.js';
export { Searcher } from './hops.js';
export { runLoop, sufficiencyFor, thetaOf } from './loop.js';
export { featureNames, modelFitProblem, namesDiffer } from './model-fit.js';
export { bestMentions, containsPhrase, phraseMentions, titleHits } from './phrases.js';
export { answerKind, isQuestion, isQuestionWord, QUESTION_WORDS, questionDepth, questionNames } from './question.js';
export { restrictedTerms } from './scan-budget.js';
export { SEGMENT_SCAN, spreads } from './scan-segments.js';
export { searchOp, searchScratchBytes } from './search-op.js';
export { buildHop1, buildHop2, buildHop3, heldByOneDocument, hop1Chains, stageOf } from './stages.js';
export { SUFFICIENCY, SUFFICIENCY_NAMES, sufficiencyFeatures } from './sufficiency-features.js';
export { rememberedSnapshots, termTable } from './term-ranges.js';
export { TouchedRows } from './touched-rows.js';
export type * from './types.js';
