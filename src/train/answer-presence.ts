// Whether a question's answer is written anywhere in a store apart from the question's own documents.
// Hiding a question's documents does not always take its answer out of the store: the wiki-pool
// holds other articles on the same people, films and places, and the answer may be in them. The
// generalisation evaluation reports the no-answer confidence both over every question asked with
// its documents hidden and over those whose answer (any of its answer strings) is then written
// nowhere in the store: the questions that truly have no answer there.
// Invariants: text is compared after NFKD, with combining marks dropped, lowercased, and every run
// of characters other than letters and digits made one space, so an answer matches whole words only;
// a question without an answer string that can be looked for (none, only yes or no, or one that
// leaves no word) is never counted absent.

/** The text of a store's documents, searchable for answer strings. */
export class AnswerText {
  private readonly text: string;
  /** where each document's text starts in `text`, ascending, and its id */
  private readonly starts: number[] = [];
  private readonly ids: string[] = [];

  constructor(docs: ReadonlyArray<{ id: string; text: string }>) {
    const parts: string[] = [];
    let at = 0;
    for (const d of docs) {
      const t = normalised(d.text);
      this.starts.push(at);
      this.ids.push(d.id);
      parts.push(t);
      at += t.length;
    }
    this.text = parts.join('');
  }

  /** True when no document outside `except` holds any of the answers as whole words. */
  absent(answers: readonly string[] | undefined, except: readonly string[]): boolean {
    const forms = (answers ?? []).map(normalised).filter((a) => a.trim().length > 0 && !YES_NO.has(a.trim()));
    if (forms.length === 0) return false;
    const skip = new Set(except);
    for (const a of forms) {
      for (let i = this.text.indexOf(a); i >= 0; i = this.text.indexOf(a, i + 1)) {
        if (!skip.has(this.ids[this.docAt(i)])) return false;
      }
    }
    return true;
  }

  /** The document whose text holds position i. */
  private docAt(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Answers of comparison questions, which no text states as such. */
const YES_NO = new Set(['yes', 'no']);

/** " words of the text " as compared: NFKD, marks dropped, lowercased, one space between words and at both ends. */
function normalised(s: string): string {
  const words = s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return ` ${words} `;
}
