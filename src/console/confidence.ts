// What a search's confidence means, in the bands the API documents for it (the MCP search tool's
// description, docs/api.md): it is the calibrated probability that the passages returned hold all
// the evidence the question needs. At SUFFICIENT or more the search found enough; at CERTAIN or more
// an answer can rest on it; below SUFFICIENT the evidence is likely incomplete. Pure.

export const SUFFICIENT = 0.5;
export const CERTAIN = 0.8;

export interface Verdict {
  enough: boolean;
  label: string;
  advice: string;
}

export function verdict(confidence: number, passages: number): Verdict {
  if (passages === 0)
    return { enough: false, label: 'Nothing found', advice: 'No passage matches: rephrase with other words, or loosen the filter.' };
  if (confidence >= CERTAIN)
    return { enough: true, label: 'Found enough', advice: 'The passages very likely hold all the evidence the question needs.' };
  if (confidence >= SUFFICIENT)
    return {
      enough: true,
      label: 'Found enough',
      advice: 'The passages probably hold the evidence: check them before relying on an answer.',
    };
  return {
    enough: false,
    label: 'Not enough',
    advice: 'The evidence is likely incomplete: rephrase, name the entity you need, or allow more hops.',
  };
}
