// Headed copies of a long-document corpus, for `npm run eval -- --headings generic|topic`: each
// article gets its title as its first line and, over every HEADED_EVERY-th paragraph after the
// first, a heading line, as an article with sections comes. `generic` headings name nothing
// ("Overview", "History", cycled); `topic` headings name their paragraph's subtopic: its most
// frequent word of at least five letters that is not in the title nor a common function word
// ("Economy" over the economy). Either way the article's title says more about each passage than
// its heading does, so the store should search as it does without them. Deterministic.
import type { Doc } from './bench-util.js';

export const HEADINGS = ['generic', 'topic'] as const;
export type HeadingKind = (typeof HEADINGS)[number];

const HEADED_EVERY = 4;
const GENERIC = [
  'Overview',
  'History',
  'Background',
  'Details',
  'Description',
  'Development',
  'Later years',
  'Legacy',
  'Notes',
  'Further reading',
];
const COMMON = new Set(
  'which there their these those about after other would could between during while where first under since being through until against among because before however including within without became'.split(
    ' ',
  ),
);

/** The paragraph's most frequent word of at least five letters, not in the title nor COMMON, capitalised (ties: the first in alphabetical order). */
function topicOf(paragraph: string, title: string): string {
  const inTitle = new Set(title.toLowerCase().match(/\p{L}+/gu) ?? []);
  const counts = new Map<string, number>();
  for (const w of paragraph.toLowerCase().match(/\p{L}{5,}/gu) ?? [])
    if (!COMMON.has(w) && !inTitle.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'notes';
  return best[0].toUpperCase() + best.slice(1);
}

/** The corpus with a title line and a heading of `kind` over every HEADED_EVERY-th paragraph; metadata.title kept. */
export function headedCorpus(docs: Doc[], kind: HeadingKind): Doc[] {
  return docs.map((d) => {
    const title = typeof d.metadata?.title === 'string' ? d.metadata.title : d.id;
    const paras = d.text.split(/\n\s*\n/);
    const heading = (p: string, i: number) => (kind === 'generic' ? GENERIC[(i / HEADED_EVERY) % GENERIC.length] : topicOf(p, title));
    const body = paras.map((p, i) => (i > 0 && i % HEADED_EVERY === 0 ? `${heading(p, i)}\n${p}` : p)).join('\n\n');
    return { ...d, text: `${title}\n${body}`, metadata: { ...d.metadata, title } };
  });
}
