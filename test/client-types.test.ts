// The client's and the server's types cannot drift from the served contract: src/api-types.ts must be
// exactly what the generator makes of the OpenAPI document a real server serves (SVC_UPDATE_TYPES=1
// rewrites it), and the client has an error class for every error type of the server's table, with its status.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ERROR_CLASSES, SvcError } from '../src/client/index.js';
import { generateTypes, tsType } from '../src/client/openapi-codegen.js';
import { ERRORS } from '../src/errors.js';
import { REPO, startTestServer } from './helpers/server.js';

const FILE = path.join(REPO, 'src', 'api-types.ts');
const { api } = await startTestServer(t, { threads: 1 });
const doc = await api.get('/openapi.json');

t.test('api-types.ts is what the served OpenAPI document generates', async (t) => {
  const want = generateTypes(doc);
  if (process.env.SVC_UPDATE_TYPES === '1') fs.writeFileSync(FILE, want);
  const have = fs.readFileSync(FILE, 'utf8');
  if (have === want) {
    t.pass('in sync');
    return;
  }
  const a = have.split('\n');
  const b = want.split('\n');
  const i = a.findIndex((line, k) => line !== b[k]);
  t.fail(
    `src/api-types.ts differs from the served document at line ${i + 1}:\n  committed: ${a[i]}\n  served:    ${b[i]}\nRegenerate with SVC_UPDATE_TYPES=1 npx tap test/client-types.test.ts, then fix what no longer compiles.`,
  );
});

t.test('every schema, operation and error type of the document is in the generated module', async (t) => {
  const generated = fs.readFileSync(FILE, 'utf8');
  for (const name of Object.keys(doc.components.schemas))
    t.match(generated, new RegExp(`export (interface|type) ${name}\\b`), `schema ${name}`);
  const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
    Object.values(item).map((o) => o.operationId),
  );
  const { OPERATIONS, ERROR_STATUS } = await import('../src/api-types.js');
  t.same(Object.keys(OPERATIONS).sort(), ops.sort(), 'OPERATIONS lists every operationId');
  for (const [type, status] of Object.entries(ERROR_STATUS))
    t.equal(ERRORS[type as keyof typeof ERRORS]?.status, status, `${type} is ${status} in src/errors.ts`);
});

t.test('one error class per server error type, with its status', async (t) => {
  t.same(Object.keys(ERROR_CLASSES).sort(), Object.keys(ERRORS).sort(), 'the same types as src/errors.ts');
  for (const [type, cls] of Object.entries(ERROR_CLASSES)) {
    const err = new cls({ message: 'm', fix: 'f', requestId: 'req_1' });
    t.ok(err instanceof SvcError, `${cls.name} is an SvcError`);
    t.match(err, { type, status: ERRORS[type as keyof typeof ERRORS].status, message: 'm', fix: 'f', requestId: 'req_1', name: cls.name });
    t.equal(cls.type, type);
  }
});

t.test('the generator covers the schema forms the document uses', async (t) => {
  t.equal(tsType({ type: ['string', 'null'] }), 'string | null');
  t.equal(tsType({ enum: ['a', "b'c"] }), "'a' | 'b\\'c'");
  t.equal(tsType({ anyOf: [{ type: 'string' }, { type: 'integer' }] }), 'string | number');
  t.equal(tsType({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } }), 'Array<string | boolean>');
  t.equal(tsType({ type: 'object', additionalProperties: { $ref: '#/components/schemas/X' } }), 'Record<string, X>');
  t.equal(
    tsType({ type: 'object', required: ['a'], properties: { a: { type: 'string' }, 'b-c': { type: 'number', description: 'B.' } } }),
    "{\n  a: string;\n  /** B. */\n  'b-c'?: number;\n}",
  );
  t.equal(tsType({}), 'unknown');
});
