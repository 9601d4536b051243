// The client as a package of its own (packages/client, `svc-client`): bundled by esbuild for the
// browser platform, where any Node built-in fails the build; no runtime dependency; the bundle run
// against a real server; and the server package still exporting the same client.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import t from 'tap';
import { REPO, startTestServer, tempDir } from './helpers/server.js';

const PKG = path.join(REPO, 'packages', 'client');
const { server, api } = await startTestServer(t, { threads: 1 });
await api.post('/stores', { name: 'web' });
await api.post('/stores/web/documents', { documents: [{ id: 'a', text: 'Lisbon\nLisbon lies where the Tagus meets the sea.' }] });

t.test('svc-client: no dependencies, built for Node, browsers and edge runtimes', async (t) => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
  t.equal(pkg.name, 'svc-client');
  t.notOk(pkg.dependencies, 'no runtime dependency');
  t.notOk(pkg.private, 'publishable');
  t.equal(pkg.license, 'Apache-2.0');
  t.ok(
    fs.existsSync(path.join(PKG, 'dist', 'client', 'index.js')) && fs.existsSync(path.join(PKG, 'dist', 'client', 'index.d.ts')),
    'ESM with types',
  );
});

t.test('esbuild bundles it for the browser, with no Node built-in', async (t) => {
  const out = await build({
    entryPoints: [path.join(PKG, 'dist', 'client', 'index.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  t.same(out.errors, [], 'a Node built-in would be an error on the browser platform');
  const inputs = Object.keys(out.metafile.inputs);
  t.ok(inputs.length > 5, `${inputs.length} modules`);
  t.same(
    inputs.filter((i) => i.startsWith('node:') || i.includes('node_modules')),
    [],
    'nothing but the client itself',
  );
  const code = out.outputFiles[0].text;
  t.notMatch(code, /\brequire\(|from ["']node:/, 'no require, no node: import');
  // the browser bundle, run here: it talks to a real server with fetch alone
  const file = path.join(tempDir(t), 'svc-client.browser.mjs');
  fs.writeFileSync(file, code);
  const { Svc, StoreNotFoundError } = await import(pathToFileURL(file).href);
  const svc = new Svc({ baseUrl: server.url, env: {} });
  const r = await svc.search('web', 'Which river reaches the sea at Lisbon?');
  t.equal(r.passages[0].doc_id, 'a');
  const ingested = await svc.documents.ingestStream('web', [{ id: 'b', text: 'Porto\nPorto lies on the Douro.' }]);
  t.equal(ingested.documents, 1, 'ingestStream hashes its Idempotency-Keys with Web Crypto');
  await t.rejects(svc.stores.get('nope'), StoreNotFoundError);
});

t.test("the server package exports the same client: import { Svc } from 'svc-search'", async (t) => {
  const fromServer = await import('svc-search');
  const fromPackage = await import('svc-client');
  t.equal(typeof fromServer.Svc, 'function');
  t.same(Object.keys(fromServer).sort(), Object.keys(fromPackage).sort(), 'the same exports');
  const svc = new fromServer.Svc({ baseUrl: server.url, env: {} });
  t.equal((await svc.stores.get('web')).name, 'web');
});
