// The types of text analysis: a text's tokens, a passage's term sequence with per-token flags, and
// a whole document as the index needs it.

export interface Tokens {
  /** Folded forms, in text order. */
  forms: string[];
  /** [start, end) of each token in the original text. */
  start: Uint32Array;
  end: Uint32Array;
}

export interface TermSeq {
  /** Term ids: hash32 of each token's stem, in text order. */
  terms: Uint32Array;
  flags: Uint8Array;
}

export interface AnalyzedPassage extends TermSeq {
  start: number;
  end: number;
}

/** Headings' titles analysed ahead (analyze.ts packTitles): title i's terms are `terms[ends[i - 1] .. ends[i])`, its base length `baseLens[i]`. */
export interface PackedTitles {
  terms: Uint32Array;
  ends: Uint32Array;
  baseLens: Uint32Array;
}

/** A section of a long document (text/sections.ts): from passage `first` to the next section's, titled by its heading. */
export interface Section {
  first: number;
  /** The heading's title terms. */
  title: Uint32Array;
  /** Leading title terms that form the heading without a trailing parenthetical; 0 when there is none. */
  baseLen: number;
}

export interface AnalyzedDoc {
  passages: AnalyzedPassage[];
  /** Title terms (empty when the document has no title). */
  title: Uint32Array;
  /** Leading title terms that form the title without a trailing parenthetical ("Devotion (1929 film)" -> 1); 0 when there is none. */
  baseLen: number;
  /** The document's sections: none unless it is longer than FEATURE_TEXT.docWindow passages and has heading lines. */
  sections: Section[];
  nTokens: number;
}
