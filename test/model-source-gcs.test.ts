// Model distribution from Google Cloud Storage through the official client pointed by
// STORAGE_EMULATOR_HOST at a local emulator started here (test/helpers/gcs-emulator.ts: a minimal
// server implementing the object get/list routes the client uses, since no GCS emulator installs
// from npm). Covers the cold download, a warm start with the emulator stopped, a corrupted cached
// file, a connection cut mid-file, the error messages, and the CLI exiting non-zero on them.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { resolveModel } from '../src/model-source/resolve.js';
import { GcsEmulator } from './helpers/gcs-emulator.js';
import { listFiles, makeModelVersion, messages, seedStore, startOn } from './helpers/model-source.js';
import { REPO, tempDir } from './helpers/server.js';

const BUCKET = 'svc-models';
const URI = `gs://${BUCKET}/svc-mh/1.0.0/`;

interface Logged {
  lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }>;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

function logCollector(): Logged {
  const lines: Logged['lines'] = [];
  return {
    lines,
    info: (msg, fields) => void lines.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => void lines.push({ level: 'warn', msg, fields }),
  };
}

async function withGcs(t: Test): Promise<{ gcs: GcsEmulator; v1: string; cache: string; dataDir: string }> {
  const gcs = await new GcsEmulator().start();
  t.teardown(() => gcs.stop());
  const saved = process.env.STORAGE_EMULATOR_HOST;
  process.env.STORAGE_EMULATOR_HOST = gcs.host;
  t.teardown(() => {
    if (saved === undefined) delete process.env.STORAGE_EMULATOR_HOST;
    else process.env.STORAGE_EMULATOR_HOST = saved;
  });
  const v1 = path.join(tempDir(t), '1.0.0');
  makeModelVersion(v1, '1.0.0');
  gcs.putFolder(BUCKET, 'svc-mh/1.0.0/', v1);
  const dataDir = tempDir(t);
  return { gcs, v1, cache: path.join(dataDir, '.model-cache'), dataDir };
}

t.test('cold download into the cache, then a warm server start with the emulator stopped', async (t) => {
  const { gcs, v1, cache, dataDir } = await withGcs(t);
  const log = logCollector();
  const dir = await resolveModel(URI, cache, log);
  t.equal(dir, path.join(cache, 'gs', BUCKET, 'svc-mh', '1.0.0'), 'cache layout: <cache>/gs/<bucket>/<prefix>');
  t.same(listFiles(dir), listFiles(v1), 'every listed file and the manifest');
  t.same(gcs.requests.filter((r) => r.includes('alt=media')).length, 3, 'manifest.json and the two listed files, one request each');
  t.ok(
    log.lines.some((l) => l.msg === 'model download progress'),
    'progress logged',
  );

  await gcs.stop();
  const seen = gcs.requests.length;
  const s = await startOn(t, { modelUri: URI, dataDir });
  t.equal(gcs.requests.length, seen, 'no request');
  t.ok(messages(s.logs).includes('model loaded from cache'), 'served from the default cache, $SVC_DATA_DIR/.model-cache');
  t.equal(s.server.services.engine.model, 'svc-mh@1.0.0');
  t.equal((await s.api.get('/health')).status, 'ok');
  await seedStore(s.api);
  t.equal((await s.api.post('/stores/docs/search', { query: 'zq5' })).passages[0].doc_id, 'd5');
});

t.test('a corrupted or truncated cached file is detected and fetched again', async (t) => {
  const { gcs, v1, cache } = await withGcs(t);
  const dir = await resolveModel(URI, cache, logCollector());
  fs.writeFileSync(path.join(dir, 'extra-b.bin'), 'short');
  const log = logCollector();
  const before = gcs.requests.length;
  await resolveModel(URI, cache, log);
  t.match(
    log.lines.find((l) => l.level === 'warn')?.fields?.error,
    /extra-b\.bin is 5 bytes; manifest\.json says 1000/,
    'logged with the cause',
  );
  t.ok(gcs.requests.length > before, 'fetched again');
  t.same(fs.readFileSync(path.join(dir, 'extra-b.bin')), fs.readFileSync(path.join(v1, 'extra-b.bin')));
});

t.test('a connection cut mid-file fails the download and caches nothing; the next try succeeds', async (t) => {
  const { gcs, v1, cache } = await withGcs(t);
  gcs.cut.set('svc-mh/1.0.0/extra/table-a.bin', 50_000);
  await t.rejects(resolveModel(URI, cache, logCollector(), { idleTimeoutMs: 500 }), {
    name: 'ModelSourceError',
    message: `cannot fetch model ${URI}: the connection to ${gcs.host} failed (no data received for 0.5 s)`,
    fix: /STORAGE_EMULATOR_HOST/,
  });
  t.same(listFiles(cache), [], 'no cached model, no temp folder');
  const dir = await resolveModel(URI, cache, logCollector());
  t.same(listFiles(dir), listFiles(v1));
});

t.test('errors name the URI and the cause', async (t) => {
  const { gcs, cache } = await withGcs(t);
  await t.rejects(resolveModel('gs://no-such-bucket/svc-mh/1.0.0/', cache, logCollector()), {
    message:
      "cannot fetch model gs://no-such-bucket/svc-mh/1.0.0/: bucket 'no-such-bucket' does not exist (The specified bucket does not exist.)",
  });
  await t.rejects(resolveModel(`gs://${BUCKET}/svc-mh/`, cache, logCollector()), {
    message: `cannot fetch model gs://${BUCKET}/svc-mh/: no manifest.json there (gs://${BUCKET}/svc-mh/manifest.json does not exist)`,
    fix: `Point SVC_MODEL_URI at a version folder that holds manifest.json; folders under gs://${BUCKET}/svc-mh/: 1.0.0/.`,
  });
  gcs.put(BUCKET, 'svc-mh/bad/manifest.json', '{"format": "svc-model/1", "files": [{"path": "../escape", "bytes": 1, "sha256": "00"}]}');
  await t.rejects(resolveModel(`gs://${BUCKET}/svc-mh/bad/`, cache, logCollector()), {
    message: /its manifest\.json lists an unusable file entry: .*\.\.\/escape/,
  });
  gcs.put(
    BUCKET,
    'svc-mh/other-engine/manifest.json',
    JSON.stringify({ format: 'svc-model/1', name: 'x', version: '1', engine: 'svc-engine/9', files: [] }),
  );
  await t.rejects(resolveModel(`gs://${BUCKET}/svc-mh/other-engine/`, cache, logCollector()), {
    message: `cannot use model gs://${BUCKET}/svc-mh/other-engine/: model x@1 needs engine svc-engine/9; this server runs svc-engine/1`,
  });
  gcs.private.add(BUCKET);
  await t.rejects(resolveModel(URI, cache, logCollector()), {
    message: new RegExp(`^cannot fetch model ${URI}: no usable Google Cloud credentials \\(Anonymous caller`),
    fix: /GOOGLE_APPLICATION_CREDENTIALS/,
  });
  t.same(listFiles(cache), [], 'nothing cached');
});

t.test('svc serve exits non-zero with the error and its fix, without starting', async (t) => {
  const { gcs } = await withGcs(t);
  const dataDir = tempDir(t);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'main.ts'), 'serve', '--no-auth', '--port', '0'],
    {
      cwd: REPO,
      env: {
        ...process.env,
        SVC_DATA_DIR: dataDir,
        SVC_MODEL_URI: `gs://${BUCKET}/svc-mh/9.9.9`,
        STORAGE_EMULATOR_HOST: gcs.host,
        SVC_LOG: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  t.equal(code, 1, 'exit status 1');
  t.equal(out, '', 'no startup line');
  t.match(
    err,
    `error: cannot fetch model gs://${BUCKET}/svc-mh/9.9.9/: no manifest.json there (gs://${BUCKET}/svc-mh/9.9.9/manifest.json does not exist)\n`,
  );
  t.match(err, `fix: Point SVC_MODEL_URI at a version folder that holds manifest.json; folders under gs://${BUCKET}/svc-mh/: 1.0.0/.\n`);
});
