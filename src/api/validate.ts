// Request validation compiled by Ajv from the OpenAPI document (never from hand-written copies).
// For each operation: the JSON body, the query string (coerced from strings, unknown parameters
// refused) and the headers it declares. A failure becomes 400 `invalid_request` whose message names
// the field and whose fix quotes the field's description from the document (its valid range).
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '../errors.js';
import type { Operation } from './openapi.js';

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/** The OpenAPI document: Ajv is given all of it; `Paths` and `Parameter` are the parts read here. */
type Doc = Record<string, unknown>;
type Paths = Record<string, Record<string, { parameters?: Array<{ $ref: string }> }>>;
/** A parameter object (what a parameter's $ref points at). */
interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema: SchemaObject;
}
/** The fields of a failing schema node that an error message reads. */
interface DescribedSchema {
  description?: string;
  properties?: Record<string, { description?: string } | undefined>;
}

function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: false, verbose: true, useDefaults: true, coerceTypes: coerce ? 'array' : false });
  ajv.addVocabulary(['openapi', 'jsonSchemaDialect', 'info', 'servers', 'security', 'paths', 'components', 'example']);
  addFormats(ajv);
  return ajv;
}

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export interface OperationValidator {
  body?: (body: unknown) => void;
  query: (query: Record<string, unknown>) => Record<string, unknown>;
  headers: (headers: Record<string, string | string[] | undefined>) => void;
}

function schemaAt(doc: Doc, ref: string): unknown {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

/** An `anyOf` failure (e.g. a metadata value of the wrong type) is reported as a whole, not by branch. */
function firstError(errors: ErrorObject[]): ErrorObject {
  return errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
}

/** A readable error for the first failure; the failing schema node's description is the fix. */
function describe(where: string, err: ErrorObject): ApiError {
  const path = where + err.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
  const parent = (err.parentSchema ?? {}) as DescribedSchema;
  if (err.keyword === 'additionalProperties') {
    const extra = (err.params as { additionalProperty: string }).additionalProperty;
    const allowed = Object.keys(parent.properties ?? {}).join(', ');
    return new ApiError('invalid_request', `${path} has an unknown field '${extra}'`, {
      fix: allowed ? `Allowed fields: ${allowed}.` : `Remove '${extra}'.`,
    });
  }
  if (err.keyword === 'required') {
    const missing = (err.params as { missingProperty: string }).missingProperty;
    return new ApiError('invalid_request', `${path} is missing the required field '${missing}'`, {
      fix: parent.properties?.[missing]?.description ?? `Add '${missing}'.`,
    });
  }
  const fix = parent.description ?? 'See /v1/openapi.json for the valid shape.';
  return new ApiError('invalid_request', `${path} ${err.message ?? 'is invalid'}`, { fix });
}

export function compileValidators(doc: Doc, operations: Operation[]): Map<string, OperationValidator> {
  const bodyAjv = makeAjv(false);
  const queryAjv = makeAjv(true);
  bodyAjv.addSchema(doc, 'openapi.json');
  queryAjv.addSchema(doc, 'openapi.json');
  const out = new Map<string, OperationValidator>();
  for (const op of operations) {
    const opDoc = (doc.paths as Paths)[op.path][op.method];
    const params = (opDoc.parameters ?? []).map((p) => schemaAt(doc, p.$ref) as Parameter);
    const queryParams = params.filter((p) => p.in === 'query');
    const headerParams = params.filter((p) => p.in === 'header');
    const querySchema = {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
    };
    const validateQuery = queryAjv.compile(querySchema);
    const paramDescriptions = new Map(params.map((p) => [p.name, p.description as string]));
    const allowedQuery = queryParams.map((p) => p.name).join(', ') || 'none';
    const headerValidators = headerParams.map((p) => ({
      name: p.name,
      check: queryAjv.compile(p.schema),
      description: p.description as string,
    }));

    let body: OperationValidator['body'];
    if (op.body) {
      const bodyRef = `openapi.json#/${pointer('components', 'schemas', op.body)}`;
      const validateBody = bodyAjv.getSchema(bodyRef) as ValidateFunction;
      body = (value) => {
        if (!validateBody(value)) {
          throw describe('body', firstError(validateBody.errors!));
        }
      };
    }
    out.set(op.id, {
      body,
      query(query) {
        const copy: Record<string, unknown> = { ...query };
        if (!validateQuery(copy)) {
          const err = validateQuery.errors![0];
          if (err.keyword === 'additionalProperties') {
            const extra = (err.params as { additionalProperty: string }).additionalProperty;
            throw new ApiError('invalid_request', `unknown query parameter '${extra}'`, {
              fix: `Query parameters of this endpoint: ${allowedQuery}.`,
            });
          }
          const name = err.instancePath.replace(/^\//, '');
          throw new ApiError('invalid_request', `query parameter '${name}' ${err.message}`, {
            fix: paramDescriptions.get(name) ?? allowedQuery,
          });
        }
        // Ajv coerces 'Infinity' and '1e999' to Infinity and then skips minimum/maximum: refuse them here.
        const infinite = Object.entries(copy).find(([, v]) => typeof v === 'number' && !Number.isFinite(v));
        if (infinite)
          throw new ApiError('invalid_request', `query parameter '${infinite[0]}' must be a finite number`, {
            fix: paramDescriptions.get(infinite[0]) ?? allowedQuery,
          });
        return copy;
      },
      headers(headers) {
        for (const h of headerValidators) {
          const v = headers[h.name.toLowerCase()];
          if (v === undefined) continue;
          if (Array.isArray(v) || !h.check(v)) throw new ApiError('invalid_request', `header ${h.name} is invalid`, { fix: h.description });
        }
      },
    });
  }
  return out;
}
