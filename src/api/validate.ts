// Request validation compiled by Ajv from the OpenAPI document (never from hand-written copies).
// For each operation: the JSON body, the query string (coerced from strings, unknown parameters
// refused) and the headers it declares. A failure becomes 400 `invalid_request` whose message names
// the field and whose fix quotes the field's description from the document (its valid range).
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '../errors.js';
import { checkJsonDepth } from './body.js';
import type { Operation } from './openapi.js';

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/** The OpenAPI document: Ajv is given all of it; `Paths` and `Parameter` are the parts read here. */
type Doc = Record<string, unknown>;
type Paths = Record<string, Record<string, { parameters?: Array<{ $ref: string }> }>>;
/** A parameter object (what a parameter's $ref points at): a plain `schema`, or JSON `content` (a value sent as URL-encoded JSON). */
interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: SchemaObject;
  content?: { 'application/json': { schema: SchemaObject } };
}
/** The fields of a failing schema node that an error message reads. */
interface DescribedSchema {
  description?: string;
  properties?: Record<string, { description?: string } | undefined>;
  patternProperties?: unknown;
}

function makeAjv(coerce: boolean): Ajv2020 {
  // strictRequired off: `oneOf: [{required: [a]}, {required: [b]}]` (exactly one of two properties) names properties its parent defines.
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors: false,
    verbose: true,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
  });
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

/**
 * The error to report. Inside an `anyOf`, Ajv lists each branch's failure and then the anyOf's: the
 * deepest failures are the most specific (a filter's `$in` list too long, not "matches no branch"),
 * and among them one that is not a mere type mismatch of a branch; when every branch failed on the
 * value's type (a filter value that is an array), the outermost `anyOf` is reported as a whole.
 */
function firstError(errors: ErrorObject[]): ErrorObject {
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const max = Math.max(...errors.map(depth));
  const deepest = errors.filter((e) => depth(e) === max);
  // An object's `oneOf` (exactly one of two fields) is reported as a whole, not by its branches' `required`.
  const oneOf = deepest.find((e) => e.keyword === 'oneOf');
  if (oneOf) return oneOf;
  return deepest.find((e) => e.keyword !== 'type' && e.keyword !== 'anyOf') ?? deepest.findLast((e) => e.keyword === 'anyOf') ?? deepest[0];
}

/** A readable error for the first failure; the failing schema node's description is the fix. */
function describe(where: string, err: ErrorObject): ApiError {
  const path = where + err.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
  const parent = (err.parentSchema ?? {}) as DescribedSchema;
  if (err.keyword === 'additionalProperties') {
    const extra = (err.params as { additionalProperty: string }).additionalProperty;
    const allowed = Object.keys(parent.properties ?? {}).join(', ');
    // An object with patterned keys (a filter's metadata keys) is described as a whole.
    const fix =
      parent.patternProperties && parent.description ? parent.description : allowed ? `Allowed fields: ${allowed}.` : `Remove '${extra}'.`;
    return new ApiError('invalid_request', `${path} has an unknown field '${extra}'`, { fix });
  }
  if (err.keyword === 'oneOf') {
    const names = ((err.parentSchema as { oneOf?: Array<{ required?: string[] }> }).oneOf ?? []).flatMap((b) => b.required ?? []);
    const none = (err.params as { passingSchemas: number[] | null }).passingSchemas === null;
    const what = none
      ? `neither ${names.join(' nor ')}`
      : names.length === 2
        ? `both ${names.join(' and ')}`
        : `more than one of ${names.join(', ')}`;
    return new ApiError('invalid_request', `${path} has ${what}`, {
      fix: parent.description ?? 'See /v1/openapi.json for the valid shape.',
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

/** Body validators by document: one Ajv per served document (the router's, and schemaChecker's). */
const bodyAjvs = new WeakMap<Doc, Ajv2020>();
function bodyAjvOf(doc: Doc): Ajv2020 {
  let ajv = bodyAjvs.get(doc);
  if (!ajv) {
    ajv = makeAjv(false);
    ajv.addSchema(doc, 'openapi.json');
    bodyAjvs.set(doc, ajv);
  }
  return ajv;
}

/**
 * A check of a value against one component schema of the document, filling in defaults; a failure
 * throws a 400 whose message names `where`. Request bodies, JSON query parameters and each search
 * of a batch are checked with it.
 */
export function schemaChecker(doc: Doc, name: string): (value: unknown, where: string) => void {
  const validate = bodyAjvOf(doc).getSchema(`openapi.json#/${pointer('components', 'schemas', name)}`) as ValidateFunction;
  return (value, where) => {
    if (!validate(value)) throw describe(where, firstError(validate.errors!));
  };
}

export function compileValidators(doc: Doc, operations: Operation[]): Map<string, OperationValidator> {
  const queryAjv = makeAjv(true);
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
      properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema ?? { type: 'string' }])),
    };
    // JSON-valued query parameters: parsed, then checked against their content schema (a component).
    const jsonParams = queryParams
      .filter((p) => p.content)
      .map((p) => {
        const ref = String(p.content!['application/json'].schema.$ref);
        return { name: p.name, check: schemaChecker(doc, ref.replace('#/components/schemas/', '')), description: p.description ?? '' };
      });
    const validateQuery = queryAjv.compile(querySchema);
    const paramDescriptions = new Map(params.map((p) => [p.name, p.description as string]));
    const allowedQuery = queryParams.map((p) => p.name).join(', ') || 'none';
    const headerValidators = headerParams.map((p) => ({
      name: p.name,
      check: queryAjv.compile(p.schema ?? {}),
      description: p.description as string,
    }));

    let body: OperationValidator['body'];
    if (op.body) {
      const check = schemaChecker(doc, op.body);
      body = (value) => check(value, 'body');
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
        for (const p of jsonParams) {
          if (copy[p.name] === undefined) continue;
          let value: unknown;
          try {
            value = JSON.parse(copy[p.name] as string);
          } catch {
            throw new ApiError('invalid_request', `query parameter '${p.name}' is not valid JSON`, { fix: p.description });
          }
          checkJsonDepth(value, `query parameter '${p.name}'`);
          p.check(value, `query.${p.name}`);
          copy[p.name] = value;
        }
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
