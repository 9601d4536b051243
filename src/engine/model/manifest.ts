// The JSON schema of a model folder's manifest.json and its validation. A manifest is checked as a
// whole at load, before any file it lists is read: every field the engine reads has its type and
// range here, so a hand-edited or truncated manifest is refused with the path of the first field
// that is wrong, never read as undefined later. Unknown keys are allowed where older or newer
// models may carry extra information (training, metrics); the parameters the engine computes with
// are closed. Whether the weights fit this engine's features is model-fit's concern (ranking/).
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { SCRIPT_NAMES } from '../text/index.js';

const num = { type: 'number' } as const;
const nums = { type: 'array', items: num } as const;
const names = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const closed = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const confParams = closed({ w: nums, b: num, platt_a: num, platt_b: num });
/** Sufficiency models, one per stage. */
const stageModels = { type: 'array', items: confParams } as const;
const returned = closed({ a: num, b: num });

/** The JSON schema (2020-12) of manifest.json. */
export const MANIFEST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'svc-model/1',
  type: 'object',
  required: ['format', 'name', 'version', 'engine', 'dims', 'tokenizer', 'files', 'params'],
  properties: {
    format: { const: 'svc-model/1' },
    name: { type: 'string', minLength: 1 },
    version: { type: 'string', minLength: 1 },
    engine: { type: 'string', minLength: 1 },
    created_at: { type: 'string' },
    dims: { type: 'integer', minimum: 0 },
    tokenizer: { type: 'object' },
    files: {
      type: 'array',
      items: closed({
        path: { type: 'string', minLength: 1 },
        bytes: { type: 'integer', minimum: 0 },
        sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      }),
    },
    params: closed(
      {
        stop: { type: 'array', items: { type: 'string' } },
        scripts: { type: 'array', items: { enum: [...SCRIPT_NAMES] }, uniqueItems: true },
        lexical: closed({ k1: num, b: num, k1Title: num, bTitle: num, titleWeight: num }),
        dense: closed({ dim: { type: 'integer', minimum: 1 }, size: { type: 'integer', minimum: 0 } }),
        search: closed(
          {
            theta: closed({ terms: { type: 'array', items: { type: 'integer', minimum: 0 } }, weights: nums }),
            W1: nums,
            W2: nums,
            W3: nums,
            exp: closed({ a_title: num, a_cap: num, a_body: num, M: { type: 'integer', minimum: 0 }, dfmax: num }),
            conf: { ...stageModels, minItems: 1 },
            decide: { ...stageModels, minItems: 1 },
            tau: nums,
            returned,
            returnedOneDocument: returned,
            keywords: closed({ conf: stageModels, decide: stageModels, returned, returnedOneDocument: returned }, ['conf']),
            features: closed({ W1: names, W2: names, W3: names, conf: names }),
          },
          ['W1', 'W2', 'W3', 'exp', 'conf', 'tau', 'features'],
        ),
        rerank: closed({ n: { type: 'integer', minimum: 1, maximum: 100 }, w: nums, features: names }),
      },
      ['stop', 'lexical', 'search'],
    ),
    training: { type: 'object' },
    metrics: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const validate = new Ajv2020({ strict: true, allErrors: false }).compile(MANIFEST_SCHEMA);

/** Why `json` is not a manifest (the first field at fault, as a JSON pointer), or undefined when it is one. */
export function manifestProblem(json: unknown): string | undefined {
  if (validate(json)) return undefined;
  const e = validate.errors?.[0] as ErrorObject;
  const at = e.instancePath || '(the manifest)';
  const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : '';
  return `${at} ${e.message}${extra}`;
}
