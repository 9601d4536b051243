// What an LLM reads of a tool's result: plain text, one block per passage or document, the numbers
// an agent decides on (confidence, hops used) first, with what they mean. The structured content
// beside it is the API's response as it is. Pure.
import type { DocumentInfo, DocumentList, SearchResult, StoreList } from '../api-types.js';

/** What a confidence tells an agent to do (the search tool's description says the same). */
function advice(confidence: number, passages: number): string {
  if (passages === 0) return 'nothing in the store matches: rephrase with other words, or search another store';
  if (confidence >= 0.8) return 'the passages very likely hold all the evidence the question needs';
  if (confidence >= 0.5) return 'the passages probably hold the evidence; check them before relying on an answer';
  return 'the evidence is likely incomplete: rephrase, name the entity you need, or search again with what these passages taught you';
}

const metadataLine = (m: Record<string, unknown>) => {
  const entries = Object.entries(m);
  return entries.length ? `metadata: ${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}\n` : '';
};

export function searchText(r: SearchResult): string {
  const head = `confidence ${r.confidence.toFixed(2)}, hops used ${r.hops_used}, ${r.passages.length} passage${r.passages.length === 1 ? '' : 's'}: ${advice(r.confidence, r.passages.length)}.`;
  const passages = r.passages.map(
    (p, i) =>
      `[${i + 1}] document "${p.doc_id}", hop ${p.hop}, characters ${p.start}-${p.end}, score ${p.score.toFixed(3)}\n${metadataLine(p.metadata)}${p.text}`,
  );
  const trace = r.trace?.length
    ? [`How the search went:\n${r.trace.map((s) => `hop ${s.hop}: read "${s.doc_id}" (${s.why}); searched with: ${s.query}`).join('\n')}`]
    : [];
  const answer = r.answer?.text ? [`Answer (${r.answer.source}): ${r.answer.text}`] : [];
  return [head, ...answer, ...passages, ...trace].join('\n\n');
}

export function documentText(d: DocumentInfo): string {
  return `document "${d.id}", ${d.n_tokens} tokens, ingested ${d.ingested_at}, updated ${d.updated_at}\n${metadataLine(d.metadata)}\n${d.text ?? ''}`;
}

export function storesText(l: StoreList): string {
  if (l.stores.length === 0) return 'No stores in this project.';
  const lines = l.stores.map((s) => `${s.name} (${s.id}): ${s.n_docs} document${s.n_docs === 1 ? '' : 's'}, created ${s.created_at}`);
  return [...lines, l.next_cursor ? `More: call list_stores with cursor "${l.next_cursor}".` : ''].filter(Boolean).join('\n');
}

export function documentsText(l: DocumentList): string {
  const lines = l.documents.map(
    (d) =>
      `"${d.id}": ${d.n_tokens} tokens, updated ${d.updated_at}${Object.keys(d.metadata).length ? `, ${metadataLine(d.metadata).trim()}` : ''}`,
  );
  const more = l.next_cursor ? [`More: call list_documents with cursor "${l.next_cursor}".`] : [];
  return [...(lines.length ? lines : ['No documents on this page.']), ...more].join('\n');
}
