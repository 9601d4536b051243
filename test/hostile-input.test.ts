// The hostile-input matrix (rows in helpers/hostile-cases.ts): bodies over the limits and
// compression bombs, invalid UTF-8, deep nesting, prototype keys, wrong types, NaN/Infinity, huge
// queries and filters, store and project names that try to leave their folder, document ids that
// point nowhere, wrong content types, header floods and malformed HTTP. Each row asserts its status
// and error.type (with a fix), and that the whole folder around the data dir is byte for byte as
// before (nothing written, nothing created anywhere). Then documents with ids full of '/', '%',
// '..', unicode and control characters round-trip through the URL-encoded path, and no id or name
// ever becomes a file name: every file stays under SVC_DATA_DIR/<project>/.

import path from 'node:path';
import t from 'tap';
import { rows } from './helpers/hostile-cases.js';
import { rawRequest } from './helpers/raw-http.js';
import { startTestServer, tempDir } from './helpers/server.js';
import { listTree, snapshot } from './helpers/store-check.js';

const base = tempDir(t, 'svc-hostile-');
const { api, server } = await startTestServer(t, { dataDir: path.join(base, 'data'), rateLimit: 1e6 });
const { id: storeId } = await api.post('/stores', { name: 'm' });
await api.post('/stores/m/documents', { documents: [{ id: 'keep', text: 'A document that must stay as it is.' }] });
const inProject = (p: string) => p === 'data/' || p === 'data/.svc.lock' || p.startsWith('data/default/');

t.test('every hostile request gets its 4xx and writes nothing', async (t) => {
  for (const row of rows()) {
    const before = snapshot(base);
    const r = row.raw
      ? await rawRequest(server.port, row.raw.head, row.raw.body)
      : await api.raw(row.method!, row.path!, row.body, row.headers);
    t.equal(r.status, row.status, `${row.name}: status`);
    if (row.type) {
      t.equal(r.body?.error?.type, row.type, `${row.name}: ${row.type}`);
      t.ok(r.body?.error?.fix, `${row.name}: has a fix`);
    }
    t.same(snapshot(base), before, `${row.name}: nothing written`);
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  t.same(
    (await api.get('/stores')).stores.map((s: { name: string }) => s.name),
    ['m'],
    'no store created',
  );
  t.same(
    listTree(base).filter((p) => !inProject(p)),
    [],
    'nothing outside SVC_DATA_DIR/<project>/',
  );
});

/** encodeURIComponent leaves dots alone, and URL parsers resolve '.'/'..' segments: encode them too. */
const encodeId = (id: string) => encodeURIComponent(id).replace(/\./g, '%2E');

t.test('ids with reserved, unicode and control characters round-trip and never name a file', async (t) => {
  const ids = [
    'a/b',
    '../../etc/passwd',
    '..\\..\\x',
    '100%',
    '%2e%2e',
    'q?x=1#f',
    'ünï-😀',
    'tab\there',
    'nl\nx',
    'nul\u0000x',
    '\u0007bell',
    ' lead',
    '.x',
    'C:\\con',
    '\u202eltr',
  ];
  const files = listTree(base).filter((p) => !p.endsWith('/'));
  await api.post('/stores/m/documents', { documents: ids.map((id) => ({ id, text: `Text of ${JSON.stringify(id)}.`, metadata: { id } })) });
  for (const id of ids) {
    const got = await api.get(`/stores/m/documents/${encodeId(id)}?include_text=true`);
    t.same([got.id, got.metadata.id, got.text], [id, id, `Text of ${JSON.stringify(id)}.`], `${JSON.stringify(id)} round-trips`);
  }
  t.same(
    listTree(base).filter((p) => !p.endsWith('/')),
    files,
    'the same files as before: ids live inside LMDB, never in file names',
  );
  t.ok(
    files.some((p) => p.startsWith(`data/default/${storeId}/`)),
    'the store lives in its own folder',
  );
  for (const id of ids)
    t.equal(
      (await api.raw('DELETE', `/stores/m/documents/${encodeId(id)}`)).status,
      204,
      `${JSON.stringify(id)} deleted by its encoded path`,
    );
  t.same(
    listTree(base).filter((p) => !inProject(p)),
    [],
    'nothing outside SVC_DATA_DIR/<project>/',
  );
});
