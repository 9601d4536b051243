// A local SVC_MODEL_URI (the air-gapped install): `svc serve` starts, ingests and searches with no
// outbound call at all. The server runs as a child process with test/helpers/no-outbound.mjs
// preloaded (in it and its worker threads), which reports and fails any outbound connection, UDP
// send or host-name lookup; the sentinel itself is checked first. Also: URI parsing and cache paths,
// and a model folder whose weights do not fit this engine's features is refused.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { defaultModelUri } from '../src/config.js';
import { H1_NAMES, loadModelFolder, SUFFICIENCY_NAMES } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { cacheFolderFor, parseRemoteUri } from '../src/model-source/model-uri.js';
import { makeModelVersion } from './helpers/model-source.js';
import { Api, REPO, tempDir } from './helpers/server.js';

/** The shipped model as errors name it: `name@version`. */
const SHIPPED = (({ name, version }) => `${name}@${version}`)(readModelFolder(defaultModelUri()).manifest);

const SENTINEL = path.join(REPO, 'test', 'helpers', 'no-outbound.mjs');

t.test('the sentinel reports and fails outbound calls, in the main thread and in workers', async (t) => {
  const script = `
    import net from 'node:net';
    import dns from 'node:dns';
    import { Worker } from 'node:worker_threads';
    try { net.connect(443, '203.0.113.7'); } catch {}
    await fetch('http://203.0.113.8/').catch(() => {});
    await dns.promises.lookup('example.com').catch(() => {});
    const w = new Worker("import('node:net').then((m) => { try { m.default.connect(80, '203.0.113.9'); } catch {} })", { eval: true });
    await new Promise((r) => w.once('exit', r));`;
  const child = spawn(process.execPath, ['--import', SENTINEL, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  await new Promise((r) => child.once('exit', r));
  for (const host of ['203.0.113.7', '203.0.113.8', 'example.com', '203.0.113.9'])
    t.match(err, new RegExp(`OUTBOUND .*${host.replace(/\./g, '\\.')}`), `caught ${host}`);
});

t.test('svc serve on a local model path makes no outbound call', async (t) => {
  const root = tempDir(t);
  const model = path.join(root, 'models', 'svc-mh', '3.1.0');
  makeModelVersion(model, '3.1.0');
  const cache = path.join(root, 'cache');
  const child = spawn(
    process.execPath,
    ['--import', SENTINEL, '--import', 'tsx', path.join(REPO, 'src', 'cli', 'main.ts'), 'serve', '--no-auth', '--port', '0'],
    {
      cwd: REPO,
      env: {
        ...process.env,
        SVC_MODEL_URI: model,
        SVC_MODEL_CACHE: cache,
        SVC_DATA_DIR: path.join(root, 'data'),
        SVC_LOG: 'info',
        AWS_ENDPOINT_URL_S3: 'http://203.0.113.10:9000',
        STORAGE_EMULATOR_HOST: 'http://203.0.113.11:9000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  t.teardown(() => void child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const api = await new Promise<Api>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+\/v1)/.exec(out);
      if (m) resolve(new Api(m[1]));
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  t.match(out, `model ${model} (cache ${cache})`, 'the startup line names the model path and the cache');
  t.equal((await api.get('/health')).status, 'ok');
  await api.post('/stores', { name: 'air' });
  await api.post('/stores/air/documents', {
    documents: [
      { id: 'a', text: 'An air-gapped host keeps its model on local disk.' },
      { id: 'b', text: 'Nothing else here.' },
    ],
  });
  t.equal((await api.post('/stores/air/search', { query: 'air-gapped model disk' })).passages[0].doc_id, 'a');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'clean shutdown');
  t.notMatch(err, /OUTBOUND/, 'no outbound call');
  t.notOk(fs.existsSync(cache), 'the cache is not even created');
});

t.test('control: the same sentinel catches svc serve fetching a remote model', async (t) => {
  const root = tempDir(t);
  const child = spawn(
    process.execPath,
    ['--import', SENTINEL, '--import', 'tsx', path.join(REPO, 'src', 'cli', 'main.ts'), 'serve', '--no-auth', '--port', '0'],
    {
      cwd: REPO,
      env: {
        ...process.env,
        SVC_MODEL_URI: 's3://svc-models/svc-mh/1.0.0/',
        AWS_ENDPOINT_URL_S3: 'http://203.0.113.11:9000',
        AWS_ACCESS_KEY_ID: 'k',
        AWS_SECRET_ACCESS_KEY: 's',
        AWS_REGION: 'us-east-1',
        SVC_DATA_DIR: root,
        SVC_LOG: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  t.equal(await new Promise((r) => child.once('exit', r)), 1, 'exits non-zero');
  t.match(err, /OUTBOUND tcp connect .*203\.0\.113\.11/, 'the attempt is reported');
  t.match(err, /error: cannot fetch model s3:\/\/svc-models\/svc-mh\/1\.0\.0\/: the connection to http:\/\/203\.0\.113\.11:9000 failed/);
});

t.test('docs/deploying.md documents the Dockerfile as it is', async (t) => {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'deploying.md'), 'utf8');
  const block = /```dockerfile\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## Container')));
  t.equal(block?.[1], fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'));
});

/** A copy of the shipped model folder in a temp dir with its manifest edited. */
function editedModel(t: Test, edit: (manifest: Record<string, any>) => void): string {
  const shipped = defaultModelUri();
  const dir = tempDir(t);
  for (const f of fs.readdirSync(shipped)) fs.copyFileSync(path.join(shipped, f), path.join(dir, f));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  edit(manifest);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

t.test('a model trained on other features than this engine computes is refused, naming the first difference', async (t) => {
  type Search = { W1: number[]; W3: number[]; conf: Array<{ w: number[] }>; features: Record<'W1' | 'W2' | 'W3' | 'conf', string[]> };
  const copy = (edit: (search: Search) => void) => editedModel(t, (m) => edit(m.params.search));
  t.ok(loadModelFolder(copy(() => {})).manifest, 'the unedited copy loads');
  const fix = /svc train/;
  const swap = (xs: string[], i: number) => ([xs[i], xs[i + 1]] = [xs[i + 1], xs[i]]);
  t.throws(() => loadModelFolder(copy((s) => swap(s.features.W1, 1))), {
    name: 'ModelError',
    message: `model ${SHIPPED} was trained for another version of svc: W1 (hop 1): feature 2 is '${H1_NAMES[2]}' in the model and '${H1_NAMES[1]}' in this engine`,
    fix,
  });
  t.throws(
    () =>
      loadModelFolder(
        copy((s) => {
          s.features.conf[4] = 'renamed';
        }),
      ),
    { name: 'ModelError', message: `conf (sufficiency): feature 5 is 'renamed' in the model and '${SUFFICIENCY_NAMES[4]}' in this engine` },
    'a renamed feature',
  );
  t.throws(
    () => loadModelFolder(copy((s) => void s.features.W3.pop())),
    { name: 'ModelError', message: /W3 \(3-chains\): feature \d+ is nothing in the model and 'is3' in this engine/ },
    'a missing feature',
  );
  t.throws(() => loadModelFolder(copy((s) => void s.W1.pop())), {
    name: 'ModelError',
    message: /W1 \(hop 1\) has 22 weights; this engine computes 23 features$/,
    fix,
  });
  t.throws(() => loadModelFolder(copy((s) => void s.W3.push(0))), { name: 'ModelError', message: /W3 \(3-chains\) has \d+ weights/, fix });
  t.throws(() => loadModelFolder(copy((s) => void s.conf[1].w.pop())), {
    name: 'ModelError',
    message: new RegExp(
      `conf\\[1\\]\\.w \\(sufficiency\\) has ${SUFFICIENCY_NAMES.length - 1} weights; this engine computes ${SUFFICIENCY_NAMES.length} features$`,
    ),
    fix,
  });
  t.equal(H1_NAMES.length, 23);
});

t.test('a manifest that does not follow its JSON schema is refused, naming the field', async (t) => {
  const copy = (edit: (manifest: Record<string, any>) => void) => editedModel(t, edit);
  const fix = /Restore the model folder/;
  t.throws(
    () =>
      loadModelFolder(
        copy((m) => {
          m.params.search.W1[3] = '0.5';
        }),
      ),
    {
      name: 'ModelError',
      message: /is not an svc-model\/1 manifest: \/params\/search\/W1\/3 must be number$/,
      fix,
    },
  );
  t.throws(() => loadModelFolder(copy((m) => void delete m.params.search.features)), {
    name: 'ModelError',
    message: /\/params\/search must have required property 'features'$/,
  });
  t.throws(
    () =>
      loadModelFolder(
        copy((m) => {
          m.params.lexical.k2 = 1;
        }),
      ),
    {
      name: 'ModelError',
      message: /\/params\/lexical must NOT have additional properties 'k2'$/,
    },
  );
  t.throws(
    () =>
      loadModelFolder(
        copy((m) => {
          m.files[0].sha256 = 'abc';
        }),
      ),
    {
      name: 'ModelError',
      message: /\/files\/0\/sha256 must match pattern/,
    },
  );
  t.throws(
    () =>
      loadModelFolder(
        copy((m) => {
          m.format = 'svc-model/2';
        }),
      ),
    {
      name: 'ModelError',
      message: /\/format must be equal to constant$/,
    },
  );
  t.throws(
    () =>
      loadModelFolder(
        copy((m) => {
          m.engine = 'svc-engine/2';
        }),
      ),
    { name: 'ModelError', message: `model ${SHIPPED} needs engine svc-engine/2; this server runs svc-engine/1`, fix: /upgrade svc/ },
    'another engine is named as such, before the schema',
  );
});

t.test('remote URIs: canonical form and cache folder; unusable ones are refused', async (t) => {
  const r = parseRemoteUri('s3://my-bucket/models/svc-mh/1.2.0');
  t.same(r, { scheme: 's3', bucket: 'my-bucket', prefix: 'models/svc-mh/1.2.0/', uri: 's3://my-bucket/models/svc-mh/1.2.0/' });
  t.equal(cacheFolderFor('/c', r), path.join('/c', 's3', 'my-bucket', 'models', 'svc-mh', '1.2.0'));
  t.equal(parseRemoteUri('gs://b.example.com/').uri, 'gs://b.example.com/', 'a model at the bucket root');
  for (const bad of ['s3://', 's3:///x/', 's3://UPPER/x/', 'gs://b/a//c/', 'gs://bkt/./x/', 'gs://bkt/a/../../etc/', 's3://bkt/a\\b/']) {
    t.throws(() => parseRemoteUri(bad), { name: 'ModelSourceError', fix: /Use (s3|gs):\/\/<bucket>/ }, bad);
  }
});
