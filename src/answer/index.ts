// The entry of src/answer: everything code outside src/answer may use. For the server: the
// answerer of `answer: true` (native reader or LLM, through src/llm) and the reader's re-ordering of
// one-hop results. For training (src/train): the native reader's features, its file format and the
// answer scoring.
export { Answerer, loadReader, type NativeLoad } from './answerer.js';
export { NativeReader, READER_FILE, READER_FORMAT, type ReaderFile } from './reader.js';
export { type PassageWords, passageWords, prepare } from './reader-context.js';
export { SENT_NAMES, scoreSentences, sentenceFeatures, topSentences } from './reader-sentences.js';
export { forEachSpan, HASH_FEATURES, SPAN_NAMES, spanFeatures } from './reader-spans.js';
export { RERANK_NAMES, rerankFeatures, rerankLead, rerankParams } from './rerank.js';
export { analyseQuestion, normalizeAnswer, scoreAnswer } from './text-units.js';
