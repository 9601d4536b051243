// JSON Schemas of a search's request and response (schemas.ts holds the rest and puts both in the
// OpenAPI document): the query and its options, one result's passages, trace and answer. Every
// property's `description` states its valid range, which validation errors quote as the `fix`.
import { ERRORS } from '../errors.js';
import { LIMITS } from './schema-limits.js';

/** The error types a search's `answer.error` can carry (answers never fail the search). */
const ANSWER_ERRORS = ['answer_unavailable', 'enrichment_failed', 'enrichment_timeout'] as const;

export const searchSchemas = {
  SearchRequest: {
    type: 'object',
    required: ['query'],
    additionalProperties: false,
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: LIMITS.queryChars,
        pattern: '\\S',
        description: `Natural-language query: 1 to ${LIMITS.queryChars} characters, not blank.`,
      },
      max_hops: {
        type: 'integer',
        minimum: LIMITS.maxHops.min,
        maximum: LIMITS.maxHops.max,
        default: LIMITS.maxHops.default,
        description: `Ceiling on hops: an integer from ${LIMITS.maxHops.min} to ${LIMITS.maxHops.max} (default ${LIMITS.maxHops.default}); the engine may stop earlier.`,
      },
      max_results: {
        type: 'integer',
        minimum: LIMITS.maxResults.min,
        maximum: LIMITS.maxResults.max,
        default: LIMITS.maxResults.default,
        description: `Maximum passages returned: an integer from ${LIMITS.maxResults.min} to ${LIMITS.maxResults.max} (default ${LIMITS.maxResults.default}).`,
      },
      return_trace: { type: 'boolean', default: false, description: 'When true, the response includes `trace` (default false).' },
      answer: {
        type: 'boolean',
        default: false,
        description: 'When true, the response includes `answer`, built from the passages found (default false).',
      },
      filter: { $ref: '#/components/schemas/Filter' },
    },
  },
  SearchBatchRequest: {
    type: 'object',
    required: ['searches'],
    additionalProperties: false,
    properties: {
      searches: {
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.batchSearches,
        description: `1 to ${LIMITS.batchSearches} searches, each a SearchRequest. Each is validated on its own: an invalid one gets an error in its place in \`results\`, the others run.`,
        items: { description: 'A SearchRequest (any other value gets an error in its place).' },
      },
    },
  },
  SearchBatchResponse: {
    type: 'object',
    required: ['results'],
    additionalProperties: false,
    properties: {
      results: {
        type: 'array',
        description: 'One per search, in the order sent: its SearchResult, or `{error: {type, message, fix}}` when it failed.',
        items: { anyOf: [{ $ref: '#/components/schemas/SearchResult' }, { $ref: '#/components/schemas/Error' }] },
      },
    },
  },
  Passage: {
    type: 'object',
    required: ['doc_id', 'text', 'score', 'hop', 'metadata', 'start', 'end', 'highlights'],
    additionalProperties: false,
    properties: {
      doc_id: { type: 'string' },
      text: { type: 'string', description: 'The passage: an exact substring of the document text, at most 1200 characters.' },
      score: { type: 'number', description: 'Relevance score (higher is better; comparable within one response).' },
      hop: { type: 'integer', minimum: 1, description: '1-based hop at which the passage was found.' },
      metadata: { $ref: '#/components/schemas/Metadata' },
      start: { type: 'integer', minimum: 0, description: 'Offset of the passage in the document text (UTF-16 code units).' },
      end: { type: 'integer', minimum: 0, description: 'End offset (exclusive) of the passage in the document text.' },
      highlights: {
        type: 'array',
        items: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 },
        description:
          "[start, end) offsets into `text` (UTF-16 code units) of the words that matched: the query's, and for a passage a later hop found, the words it shares with the passage read before it (what the hop followed). Sorted; overlapping ones merged.",
      },
    },
  },
  TraceStep: {
    type: 'object',
    required: ['hop', 'doc_id', 'why', 'query', 'ms', 'candidates'],
    additionalProperties: false,
    properties: {
      hop: { type: 'integer', minimum: 1 },
      doc_id: { type: 'string', description: 'The document read at this hop.' },
      why: { type: 'string', description: 'A short reason.' },
      query: {
        type: 'string',
        description:
          'What the hop searched with, readable: the question at hop 1; later, the question plus the words or the title taken from the passage read before (or that passage, when the hop followed all of it).',
      },
      ms: { type: 'number', minimum: 0, description: "The hop's time in the engine, in milliseconds." },
      candidates: {
        type: 'integer',
        minimum: 0,
        description:
          'How many candidates the hop scored: passages at hop 1, chains of passages (one per passage it could read next) later.',
      },
    },
  },
  SearchResult: {
    type: 'object',
    required: ['passages', 'confidence', 'hops_used', 'latency_ms', 'engine'],
    additionalProperties: false,
    properties: {
      passages: {
        type: 'array',
        items: { $ref: '#/components/schemas/Passage' },
        description:
          "Supporting passages, best first. In a one-hop result (every passage found from the question alone), the first few (two with the shipped model) are ordered by their scores together with the native reader's best sentence, and the scores are listed best-first.",
      },
      confidence: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Calibrated probability that the evidence returned is sufficient.',
      },
      hops_used: { type: 'integer', minimum: 0, description: 'Hops actually used; at most max_hops.' },
      trace: {
        type: 'array',
        items: { $ref: '#/components/schemas/TraceStep' },
        description: 'One step per hop; present when return_trace was true.',
      },
      latency_ms: {
        type: 'number',
        minimum: 0,
        description:
          "Engine-only latency measured on the server (the multi-hop loop, and the reader's ordering of a one-hop result), in milliseconds.",
      },
      engine: { type: 'string', description: 'Engine identifier with the model version.' },
      answer: { $ref: '#/components/schemas/Answer' },
    },
  },
  Answer: {
    type: 'object',
    required: ['text', 'citations', 'source'],
    additionalProperties: false,
    description:
      'Present when the search asked for answer=true. A failure of the answer source never fails the search: it is reported in `error`.',
    properties: {
      text: {
        type: ['string', 'null'],
        description:
          'The answer: from the native reader, an exact span of a passage (for a question whether things are of the same country, `yes` or `no`); from an answer model, its reply. Empty when there were no passages to read; null when `error` is set.',
      },
      citations: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Ids of the documents that support the answer, each one whose passages were read (cited ids the model was not sent are dropped).',
      },
      source: {
        type: 'string',
        description: '`native` (the reader of the model folder) or the name of the answer model (SVC_ENRICH_MODEL).',
      },
      error: { $ref: '#/components/schemas/AnswerError' },
    },
  },
  AnswerError: {
    type: 'object',
    required: ['type', 'message', 'fix'],
    additionalProperties: false,
    description: 'Why there is no answer; the search results are complete.',
    properties: {
      type: {
        type: 'string',
        enum: [...ANSWER_ERRORS],
        description: ANSWER_ERRORS.map((t) => `\`${t}\`: ${ERRORS[t].description}`).join('; '),
      },
      message: { type: 'string', description: 'What happened.' },
      fix: { type: 'string', description: 'What to do about it.' },
    },
  },
} as const;
