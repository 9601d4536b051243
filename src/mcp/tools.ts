// The MCP server's tools over a backend (types.ts). Reading tools are always there: search,
// get_document, list_stores, list_documents. Writing tools (ingest_documents, delete_document) are
// registered only when the operator allows writes, so an agent never sees nor calls them otherwise.
// Invariants: every tool answers with text an LLM reads well (render.ts) and its result as
// structured content (for the reading tools, the API's response as it is); an error of the API
// comes back as a tool error (isError) whose text carries its type, message and fix; arguments are
// checked for their types here and for their bounds by the API, so every bound's message and fix
// is the API's own.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { DocumentInput, Filter } from '../api-types.js';
import { documentsText, documentText, searchText, storesText } from './render.js';
import type { McpBackend, McpOptions } from './types.js';

const STORE = z.string().describe('Store name (from list_stores).');
const FILTER = z
  .record(z.string(), z.unknown())
  .describe(
    'Only documents whose metadata matches, e.g. {"team": "a"} or {"year": {"$gte": 2020}}; operators $eq $ne $gt $gte $lt $lte $in $nin $exists, combined with $and $or $not.',
  );
const PAGE = {
  limit: z.number().int().optional().describe('Page size, 1 to 100 (default 20).'),
  cursor: z.string().optional().describe('The cursor the previous page named, for the next page.'),
};

/** The search result as structured content: the API's SearchResult (these fields, and any it adds). */
const SEARCH_OUTPUT = {
  passages: z.array(
    z
      .object({
        doc_id: z.string(),
        text: z.string(),
        score: z.number(),
        hop: z.number().int(),
        start: z.number().int(),
        end: z.number().int(),
        metadata: z.record(z.string(), z.unknown()),
      })
      .passthrough(),
  ),
  confidence: z.number(),
  hops_used: z.number().int(),
  trace: z.array(z.object({ hop: z.number().int(), doc_id: z.string(), why: z.string(), query: z.string() }).passthrough()).optional(),
  latency_ms: z.number(),
  engine: z.string(),
  answer: z
    .object({
      text: z.string().nullable(),
      citations: z.array(z.string()),
      source: z.string(),
      error: z.object({ type: z.string(), message: z.string(), fix: z.string() }).optional(),
    })
    .optional(),
};

const SEARCH_DESCRIPTION = [
  'Multi-hop search of a store: finds the passages that answer a question, including questions that need two or three documents (the search reads a passage, then follows what it names).',
  'Returns the passages best first, each with its document id, the hop it was found at and its character offsets; `confidence` and `hops_used`; and a trace of the hops.',
  '`confidence` is the calibrated probability that the passages returned hold all the evidence the question needs: at 0.8 or more answer from them; between 0.5 and 0.8 check them; below 0.5 the evidence is likely incomplete, so rephrase, name the entity you need, or search again with what the passages taught you.',
  "`hops_used` is how many rounds the search ran: passages of hop 2 or later were found by following an earlier passage, not by the question's words alone.",
  "With `answer: true` the result also carries a short `answer` drawn from the passages, with the ids of the documents it cites (by the server's answer model when one is set, else extracted: a span of a passage, a date, a name, or yes / no); check it against the passages.",
].join(' ');

/** An error as an agent reads it: a tool error whose text carries the API's type, message and fix. */
function toolError(err: unknown): CallToolResult {
  const e = err as { type?: string; message?: string; fix?: string };
  const text = e?.type ? `svc error ${e.type}: ${e.message}${e.fix ? `\nFix: ${e.fix}` : ''}` : `svc error: ${e?.message ?? String(err)}`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: { type: e?.type ?? 'internal', message: e?.message ?? String(err), fix: e?.fix ?? '' } },
  };
}

/** Runs a tool's call, answering with its text and structured content, or as a tool error. */
async function answer<T extends object>(run: () => Promise<T>, text: (r: T) => string): Promise<CallToolResult> {
  try {
    const r = await run();
    return { content: [{ type: 'text', text: text(r) }], structuredContent: r as Record<string, unknown> };
  } catch (err) {
    return toolError(err);
  }
}

/** An MCP server with svc's tools; connect it to a transport (stdio, or one HTTP request). */
export function createMcpServer(backend: McpBackend, opts: McpOptions): McpServer {
  const server = new McpServer(
    { name: 'svc', version: opts.version },
    {
      instructions:
        'svc is a document search service. Call list_stores to see the stores, then search one with a question in plain words. Read `confidence` before answering from the passages.',
    },
  );

  server.registerTool(
    'search',
    {
      title: 'Search a store',
      description: SEARCH_DESCRIPTION,
      inputSchema: {
        store: STORE,
        query: z.string().describe('The question, in plain words (1 to 4096 characters).'),
        max_hops: z.number().int().optional().describe('At most this many hops, 1 to 8 (default 4); the search may stop earlier.'),
        max_results: z.number().int().optional().describe('At most this many passages, 1 to 100 (default 10).'),
        filter: FILTER.optional(),
        answer: z.boolean().optional().describe('Also answer the question from the passages (default false).'),
      },
      outputSchema: SEARCH_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ store, query, max_hops, max_results, filter, answer: withAnswer }) =>
      answer(
        () =>
          backend.search(store, {
            query,
            max_hops,
            max_results,
            filter: filter as Filter | undefined,
            return_trace: true,
            answer: withAnswer,
          }),
        searchText,
      ),
  );

  server.registerTool(
    'get_document',
    {
      title: 'Get a document',
      description:
        "A whole document of a store: its text, metadata, token count and when it was ingested and last updated. Use it to read around a passage a search returned (the passage's offsets point into this text).",
      inputSchema: { store: STORE, id: z.string().describe("The document id (a search passage's doc_id).") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ store, id }) => answer(() => backend.getDocument(store, id), documentText),
  );

  server.registerTool(
    'list_stores',
    {
      title: 'List stores',
      description: 'The stores of this project with their document counts, a page at a time.',
      inputSchema: PAGE,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit, cursor }) => answer(() => backend.listStores({ limit, cursor }), storesText),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description:
        'The documents of a store, most recently ingested first, a page at a time; with a filter, only those whose metadata matches (a page can then hold fewer than its limit and still name a cursor).',
      inputSchema: { store: STORE, ...PAGE, filter: FILTER.optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ store, limit, cursor, filter }) =>
      answer(() => backend.listDocuments(store, { limit, cursor, filter: filter as Filter | undefined }), documentsText),
  );

  if (!opts.allowWrites) return server;

  server.registerTool(
    'ingest_documents',
    {
      title: 'Add or replace documents',
      description: 'Adds documents to a store, replacing any with the same id; they are searchable when the call returns.',
      inputSchema: {
        store: STORE,
        documents: z
          .array(
            z.object({
              id: z.string().describe('The document id: adding a document with an existing id replaces it.'),
              text: z.string().describe('The whole text, unchunked.'),
              metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
            }),
          )
          .describe('1 to 1000 documents.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ store, documents }) =>
      answer(
        () => backend.ingest(store, documents as DocumentInput[]),
        (r) => `Ingested ${r.ingested} document${r.ingested === 1 ? '' : 's'}: ${r.doc_ids.map((id) => `"${id}"`).join(', ')}.`,
      ),
  );

  server.registerTool(
    'delete_document',
    {
      title: 'Delete a document',
      description: 'Deletes a document and its encoding from a store. It cannot be undone.',
      inputSchema: { store: STORE, id: z.string().describe('The document id.') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ store, id }) =>
      answer(
        async () => {
          await backend.deleteDocument(store, id);
          return { deleted: id };
        },
        () => `Deleted document "${id}".`,
      ),
  );
  return server;
}
