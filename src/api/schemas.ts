// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every request and response body: those of
// stores, documents, health and errors here, a search's in schemas-search.ts. They are published in
// the OpenAPI document and compiled by Ajv for validation, so the document and the behaviour cannot
// drift. Every property's `description` states its valid range: validation errors quote it as the
// `fix`. Limits live once, as constants, in schema-limits.ts.
import { CONTENT_MEDIA_TYPES } from '../ingest-content/index.js';
import { LIMITS } from './schema-limits.js';
import { searchSchemas } from './schemas-search.js';

export { LIMITS };

const metadataValue = {
  description: 'A string (at most 4096 characters), a finite number or a boolean.',
  anyOf: [{ type: 'string', maxLength: LIMITS.metadataStringChars }, { type: 'number' }, { type: 'boolean' }],
};

const metadata = {
  type: 'object',
  description: `At most ${LIMITS.metadataKeys} keys of 1 to ${LIMITS.metadataKeyChars} characters (not __proto__, constructor or prototype); values are strings, numbers or booleans.`,
  maxProperties: LIMITS.metadataKeys,
  propertyNames: { minLength: 1, maxLength: LIMITS.metadataKeyChars, not: { enum: ['__proto__', 'constructor', 'prototype'] } },
  additionalProperties: { $ref: '#/components/schemas/MetadataValue' },
};

const FILTER_DESCRIPTION = `Which documents to consider. On a metadata key: a value (equality) or an object of operators that must all hold ($eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists); keys all hold; $and, $or (non-empty lists of filters) and $not (a filter) combine filters. Numbers compare numerically, strings by code point; a value of another type never matches ($ne and $nin included), nor does a missing key (except with $exists: false). At most ${LIMITS.filter.depth} levels deep and ${LIMITS.filter.operators} operators, $in and $nin lists of 1 to ${LIMITS.filter.inValues} values. Keys starting with $ other than these are refused.`;

const filterList = {
  type: 'array',
  minItems: 1,
  items: { $ref: '#/components/schemas/Filter' },
  description: 'A non-empty list of filters.',
};
const ordered = {
  description: 'A number or a string (at most 4096 characters): numbers compare numerically, strings by code point.',
  anyOf: [{ type: 'string', maxLength: LIMITS.metadataStringChars }, { type: 'number' }],
};
const valueList = {
  type: 'array',
  minItems: 1,
  maxItems: LIMITS.filter.inValues,
  items: { $ref: '#/components/schemas/MetadataValue' },
  description: `1 to ${LIMITS.filter.inValues} metadata values.`,
};

const timestamp = { type: 'string', format: 'date-time', description: 'ISO 8601 timestamp in UTC.' };
const ingestedAt = { ...timestamp, description: 'When the document was last ingested (upserted), ISO 8601 in UTC.' };
const updatedAt = { ...timestamp, description: 'When the document last changed: an ingest or a metadata update, ISO 8601 in UTC.' };
const cursor = { type: ['string', 'null'], description: 'Pass as `cursor` to get the next page; null when the list is exhausted.' };

export const schemas = {
  MetadataValue: metadataValue,
  Metadata: metadata,
  Filter: {
    type: 'object',
    description: FILTER_DESCRIPTION,
    propertyNames: { maxLength: LIMITS.metadataKeyChars },
    properties: { $and: filterList, $or: filterList, $not: { $ref: '#/components/schemas/Filter' } },
    patternProperties: {
      '^[^$]': {
        description:
          'On a metadata key: a string, number or boolean (equality), or an object of operators that must all hold: $eq, $ne, $gt, $gte, $lt, $lte, $in (a list of values), $nin, $exists.',
        anyOf: [{ $ref: '#/components/schemas/MetadataValue' }, { $ref: '#/components/schemas/FilterCondition' }],
      },
    },
    additionalProperties: false,
  },
  FilterCondition: {
    type: 'object',
    minProperties: 1,
    additionalProperties: false,
    description:
      'Operators on one metadata key, all of which must hold: at least one of $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists.',
    properties: {
      $eq: { $ref: '#/components/schemas/MetadataValue' },
      $ne: { $ref: '#/components/schemas/MetadataValue' },
      $gt: ordered,
      $gte: ordered,
      $lt: ordered,
      $lte: ordered,
      $in: valueList,
      $nin: valueList,
      $exists: { type: 'boolean', description: 'true: the key is present (any value); false: it is absent.' },
    },
  },
  Error: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['type', 'message', 'fix'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', description: 'Machine-readable error type; see the error table.' },
          message: { type: 'string', description: 'What happened.' },
          fix: { type: 'string', description: 'What to do about it.' },
        },
      },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'version', 'engine'],
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: ['ok', 'starting', 'stopping'], description: '`ok` once the model and every store are loaded.' },
      version: { type: 'string', description: 'Service version.' },
      engine: { type: 'string', description: 'Engine identifier with the model version.' },
    },
  },
  Liveness: {
    type: 'object',
    required: ['status'],
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: ['alive'], description: 'The process serves requests (whether or not it is ready: see /health).' },
    },
  },
  StoreCreate: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: {
        type: 'string',
        pattern: LIMITS.storeName.pattern,
        description: 'Store name: 1 to 64 characters from [a-z0-9-_], unique in the project.',
      },
    },
  },
  Store: {
    type: 'object',
    required: ['id', 'name', 'n_docs', 'size_bytes', 'created_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^st_[a-z2-7]{16}$', description: 'Store id: `st_` followed by an opaque suffix.' },
      name: { type: 'string', pattern: LIMITS.storeName.pattern, description: 'Store name.' },
      n_docs: { type: 'integer', minimum: 0, description: 'Number of documents in the store.' },
      size_bytes: { type: 'integer', minimum: 0, description: 'Bytes of live data the store holds on disk.' },
      created_at: timestamp,
    },
  },
  StoreCompaction: {
    type: 'object',
    required: ['store', 'file_bytes_before', 'file_bytes_after', 'ms'],
    additionalProperties: false,
    properties: {
      store: { $ref: '#/components/schemas/Store' },
      file_bytes_before: {
        type: 'integer',
        minimum: 0,
        description: "Bytes of the store's data file before: live pages, and free ones left by deleted and replaced documents.",
      },
      file_bytes_after: { type: 'integer', minimum: 0, description: 'Bytes of the data file after: live pages only.' },
      ms: { type: 'integer', minimum: 0, description: 'Milliseconds the compaction took (writes to the store waited meanwhile).' },
    },
  },
  StoreList: {
    type: 'object',
    required: ['stores', 'next_cursor'],
    additionalProperties: false,
    properties: { stores: { type: 'array', items: { $ref: '#/components/schemas/Store' } }, next_cursor: cursor },
  },
  DocumentInput: {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    description: 'A document: its id, exactly one of `text` and `content`, and optional metadata.',
    oneOf: [{ required: ['text'] }, { required: ['content'] }],
    properties: {
      id: {
        type: 'string',
        minLength: 1,
        maxLength: LIMITS.docIdBytes,
        not: { enum: ['.', '..'] },
        description: `Document id, the upsert key: 1 to ${LIMITS.docIdBytes} bytes of UTF-8 (so at most ${LIMITS.docIdBytes} characters, fewer outside ASCII), any characters except the ids '.' and '..' (URL-encode it in paths); distinct within a request.`,
      },
      text: {
        type: 'string',
        // no minLength: the pattern implies it, and a validator counts a string's code points to check one (tens of ms for a 30 MB text)
        pattern: '\\S',
        description: 'Full document text, unchunked; must contain a non-space character. Send either text or content.',
      },
      content: { $ref: '#/components/schemas/DocumentContent' },
      metadata: { $ref: '#/components/schemas/Metadata' },
    },
  },
  DocumentContent: {
    type: 'object',
    required: ['media_type', 'data'],
    additionalProperties: false,
    description:
      'A file whose text becomes the document text (instead of `text`): a PDF has its text layer extracted; an image, or a PDF page without a text layer, is transcribed by the vision model (SVC_VISION_MODEL, else SVC_ENRICH_MODEL; refused with 400 when neither is set). The base64 counts toward the 32 MB request limit.',
    properties: {
      media_type: {
        type: 'string',
        enum: [...CONTENT_MEDIA_TYPES],
        description: `The file type: one of ${CONTENT_MEDIA_TYPES.join(', ')}.`,
      },
      data: {
        type: 'string',
        minLength: 1,
        pattern: '^[A-Za-z0-9+/\\r\\n]*={0,2}[\\r\\n]*$',
        description:
          'The file, base64-encoded (RFC 4648, with = padding; line breaks are ignored): its length without line breaks is a multiple of 4.',
      },
    },
  },
  IngestRequest: {
    type: 'object',
    required: ['documents'],
    additionalProperties: false,
    properties: {
      documents: {
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.docsPerRequest,
        description: `1 to ${LIMITS.docsPerRequest} documents with distinct ids, at most 32 MB per request.`,
        items: { $ref: '#/components/schemas/DocumentInput' },
      },
    },
  },
  IngestResponse: {
    type: 'object',
    required: ['ingested', 'doc_ids'],
    additionalProperties: false,
    properties: {
      ingested: { type: 'integer', minimum: 0, description: 'Number of documents written.' },
      doc_ids: { type: 'array', items: { type: 'string' }, description: 'Ids written, in request order.' },
    },
  },
  DocumentSummary: {
    type: 'object',
    required: ['id', 'metadata', 'n_tokens', 'ingested_at', 'updated_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      metadata: { $ref: '#/components/schemas/Metadata' },
      n_tokens: { type: 'integer', minimum: 0, description: "Tokens counted with the model's tokenizer." },
      ingested_at: ingestedAt,
      updated_at: updatedAt,
    },
  },
  ExportedDocument: {
    type: 'object',
    required: ['id', 'text', 'metadata'],
    additionalProperties: false,
    description: 'One line of an export: a document as ingest takes it (an export is an ingest file).',
    properties: {
      id: { type: 'string' },
      text: { type: 'string', description: 'The full document text.' },
      metadata: { $ref: '#/components/schemas/Metadata' },
    },
  },
  DocumentInfo: {
    type: 'object',
    required: ['id', 'metadata', 'n_tokens', 'ingested_at', 'updated_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      metadata: { $ref: '#/components/schemas/Metadata' },
      n_tokens: { type: 'integer', minimum: 0, description: "Tokens counted with the model's tokenizer." },
      ingested_at: ingestedAt,
      updated_at: updatedAt,
      text: { type: 'string', description: 'Full document text; present only with include_text=true.' },
      passages: {
        type: 'array',
        description:
          'The passages the document was cut into, which searches score and return, in text order: [start, end) offsets in the text (UTF-16 code units), at most 1200 characters each; consecutive passages may overlap (a passage takes in the sentences after it). Present only with include_passages=true.',
        items: { $ref: '#/components/schemas/PassageSpan' },
      },
    },
  },
  PassageSpan: {
    type: 'object',
    required: ['start', 'end'],
    additionalProperties: false,
    properties: {
      start: { type: 'integer', minimum: 0, description: 'Offset of the passage in the document text (UTF-16 code units).' },
      end: { type: 'integer', minimum: 1, description: 'End offset (exclusive) of the passage in the document text.' },
    },
  },
  DocumentList: {
    type: 'object',
    required: ['documents', 'next_cursor'],
    additionalProperties: false,
    properties: {
      documents: {
        type: 'array',
        items: { $ref: '#/components/schemas/DocumentSummary' },
        description: `A page: with a filter it can hold fewer than \`limit\` documents (a page reads at most ${LIMITS.listScan} documents), or none, and still have a next_cursor.`,
      },
      next_cursor: cursor,
    },
  },
  DeleteDocumentsRequest: {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    description: 'Exactly one of `filter` (delete every document it matches) and `ids`.',
    properties: {
      filter: {
        $ref: '#/components/schemas/Filter',
        type: 'object',
        minProperties: 1,
        description:
          'A filter with at least one condition (an empty one would delete every document: delete the store, DELETE /v1/stores/{store}, for that).',
      },
      ids: {
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.docsPerRequest,
        items: { type: 'string', minLength: 1 },
        description: `1 to ${LIMITS.docsPerRequest} document ids; ids not in the store are skipped.`,
      },
    },
  },
  DeleteDocumentsResponse: {
    type: 'object',
    required: ['deleted'],
    additionalProperties: false,
    properties: { deleted: { type: 'integer', minimum: 0, description: 'Documents deleted by this call (0 for a retry).' } },
  },
  DocumentPatch: {
    type: 'object',
    required: ['metadata'],
    additionalProperties: false,
    description: "Changes to a document's metadata; its text and encodings are untouched.",
    properties: {
      metadata: {
        type: 'object',
        minProperties: 1,
        maxProperties: 2 * LIMITS.metadataKeys,
        description: `1 to ${2 * LIMITS.metadataKeys} keys to set (a string, number or boolean) or remove (null), merged into the document's metadata, which keeps at most ${LIMITS.metadataKeys} keys.`,
        propertyNames: metadata.propertyNames,
        additionalProperties: { anyOf: [{ $ref: '#/components/schemas/MetadataValue' }, { type: 'null' }] },
      },
    },
  },
  ...searchSchemas,
} as const;
