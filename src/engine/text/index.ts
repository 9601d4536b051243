// The engine's text room: the tokenizer (folding, offsets), the Porter stemmer, term ids, passage
// splitting, document analysis (passages, term sequences with flags, titles, a long document's
// sections) and phrase keys. Pure and deterministic: the same text gives the same terms at ingest,
// at search and in training.
export {
  analyzeDocument,
  analyzePassages,
  analyzeTitle,
  FLAG_CAPITALISED,
  FLAG_NUMBER,
  FLAG_SENTENCE_START,
  FLAG_STOP,
  FLAG_YEAR,
  packTitles,
  sectionsPacked,
  termId,
  termSeq,
} from './analyze.js';
export { MAX_PASSAGE, type PassageRegion, passageRegions, regionHeadings, regionPassages, splitPassages } from './passages.js';
export { PHRASE_SEED, phraseExtend, phraseFinal, phraseKey } from './phrase.js';
export { porterStem } from './porter.js';
export { countScripts, mainScripts, SCRIPT_NAMES, shareInScripts, tokenScript } from './scripts.js';
export {
  entryLines,
  type Heading,
  headingLines,
  type SectionReading,
  type SectionStart,
  sectionReading,
  sectionStarts,
} from './sections.js';
export { analyzerId, bigrams, segmentation } from './segment.js';
export { documentTitle, leadSubject } from './title.js';
export { countTokens, fold, hash32, stem, tokenize } from './tokenize.js';
export type * from './types.js';
