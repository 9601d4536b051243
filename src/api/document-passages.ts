// A document's passages for GET .../documents/{id}?include_passages=true: the spans the engine cut
// it into (its text/ passages: a pure function of the text, the same whatever the document's size),
// worked out region by region (passageRegions, whose regions' passages are the whole text's) with a
// turn of the event loop between regions, so that a 30 MB document does not hold the HTTP thread for
// seconds (about 60 ms a megabyte in one go). Regions start at blank lines: a text without any is
// one region.
import { passageRegions, regionPassages } from '../engine/index.js';

const REGION_CHARS = 256 * 1024;

export async function documentPassages(text: string): Promise<Array<{ start: number; end: number }>> {
  const out: Array<{ start: number; end: number }> = [];
  for (const region of passageRegions(text, Math.max(1, Math.ceil(text.length / REGION_CHARS)))) {
    for (const [start, end] of regionPassages(text.slice(region.from, region.to), region)) out.push({ start, end });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}
