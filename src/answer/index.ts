// The entry of src/answer: everything code outside src/answer may use. For the server: the
// answerer of `answer: true` (native reader or LLM, through src/llm) and the reader's re-ordering of
// one-hop results. For training (src/train): the native reader's features, its file format and the
// answer scoring.
export { Answerer, loadReader, type NativeLoad } from './answerer.js';
export { NativeReader, READER_FILE, READER_FORMAT, type ReaderFile } from './reader.js';
export { RERANK_NAMES, rerankFeatures, rerankLead, rerankParams } from './rerank.js';
export { passageWords, prepare, type PassageWords } from './reader-context.js';
export { scoreSentences, sentenceFeatures, SENT_NAMES, topSentences } from './reader-sentences.js';
export { forEachSpan, HASH_FEATURES, spanFeatures, SPAN_NAMES } from './reader-spans.js';
export { analyseQuestion, normalizeAnswer, scoreAnswer } from './text-units.js';
