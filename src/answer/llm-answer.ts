// The answer from an LLM: the prompt shows the search's passages labelled by document id and asks
// for a short answer citing them as [doc_id]; the reply's citations are checked against the ids
// actually sent. Invariants: at most MAX_PASSAGES passages and MAX_PROMPT_CHARS characters of
// passage text are sent (best first, none cut); `citations` holds only ids that were sent, each
// once, in order of first citation; a bracketed group in the text that cites only ids that were
// not sent (an invented citation) is removed from the text.
import type { ChatMessage } from '../llm/index.js';

export const MAX_PASSAGES = 10;
export const MAX_PROMPT_CHARS = 24_000;

export interface PassageRef {
  doc_id: string;
  text: string;
}

const SYSTEM = [
  'You answer a question using only the passages given. Each passage starts with its document id in square brackets.',
  'Answer briefly and directly. After each statement, cite the documents that support it by their ids in square brackets, exactly as written, e.g. [doc-1] or [doc-1, doc-2].',
  'If the passages do not contain the answer, say so in one sentence and cite nothing.',
].join(' ');

/** The passages that fit the prompt, best first. */
export function promptPassages(passages: PassageRef[]): PassageRef[] {
  const out: PassageRef[] = [];
  let chars = 0;
  for (const p of passages.slice(0, MAX_PASSAGES)) {
    if (chars + p.text.length > MAX_PROMPT_CHARS && out.length > 0) break;
    out.push(p);
    chars += p.text.length;
  }
  return out;
}

export function answerMessages(question: string, sent: PassageRef[]): ChatMessage[] {
  const body = sent.map((p) => `[${p.doc_id}]\n${p.text}`).join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Passages:\n\n${body}\n\nQuestion: ${question}` },
  ];
}

/** The reply's text (invented citations removed) and the ids it cites among those sent. */
export function checkCitations(reply: string, sentIds: Set<string>): { text: string; citations: string[] } {
  const citations: string[] = [];
  const cite = (id: string) => {
    if (!citations.includes(id)) citations.push(id);
  };
  const text = reply.replace(/\[([^[\]\n]{1,600})\]/g, (group, inner: string) => {
    const whole = inner.trim();
    if (sentIds.has(whole)) {
      cite(whole);
      return group;
    }
    const parts = whole.split(/\s*[,;]\s*/).filter(Boolean);
    const known = parts.filter((p) => sentIds.has(p));
    known.forEach(cite);
    if (known.length > 0) return group;
    // Not one id that was sent: an invented citation when it looks like ids (no spaces), else ordinary text.
    return parts.every((p) => !/\s/.test(p)) && parts.length > 0 ? '' : group;
  });
  return {
    text: text
      .replace(/[ \t]+([.,;:!?])/g, '$1')
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
    citations,
  };
}
