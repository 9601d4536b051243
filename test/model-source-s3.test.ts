// Model distribution from S3, against a real S3-compatible server (s3rver) started here and read
// through the official client configured by the standard AWS_* variables: a cold start downloads
// the pinned version folder into the cache (with progress in the logs), a warm start with the S3
// server stopped makes no request, a corrupted cached file is fetched again, interrupted downloads
// never leave a folder a later start trusts, and each failure names the URI and the cause.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ModelSourceError, resolveModel } from '../src/model-source/resolve.js';
import { EXTRA_FILES, listFiles, makeModelVersion, messages, seedStore, startOn } from './helpers/model-source.js';
import { s3Env, startS3, type TestS3 } from './helpers/s3-server.js';
import { tempDir } from './helpers/server.js';

const BUCKET = 'svc-models';
const quiet = { info() {}, warn() {} };

async function withS3(t: Test): Promise<{ s3: TestS3; v1: string; uri: string; cache: string; dataDir: string }> {
  const s3 = await startS3([BUCKET]);
  t.teardown(() => s3.stop());
  const saved = { ...process.env };
  Object.assign(process.env, s3Env(s3.endpoint));
  t.teardown(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });
  const v1 = path.join(tempDir(t), '1.0.0');
  makeModelVersion(v1, '1.0.0');
  await s3.putFolder(BUCKET, 'svc-mh/1.0.0/', v1);
  const dataDir = tempDir(t);
  return { s3, v1, uri: `s3://${BUCKET}/svc-mh/1.0.0/`, cache: path.join(dataDir, 'cache'), dataDir };
}

t.test('cold start downloads into the cache; warm start makes no request, even with S3 stopped', async (t) => {
  const { s3, v1, uri, cache, dataDir } = await withS3(t);
  const first = await startOn(t, { modelUri: uri, dataDir, cache });
  const cached = path.join(cache, 's3', BUCKET, 'svc-mh', '1.0.0');
  t.same(listFiles(cached), listFiles(v1), 'the cache folder mirrors the version folder');
  t.same(
    fs.readdirSync(cache).filter((n) => n.startsWith('.')),
    [],
    'no temp folder left',
  );
  for (const f of Object.keys(EXTRA_FILES))
    t.same(fs.readFileSync(path.join(cached, f)), fs.readFileSync(path.join(v1, f)), `${f} byte for byte`);
  const msgs = messages(first.logs);
  t.ok(msgs.includes('model download started') && msgs.includes('model downloaded'), 'download logged');
  t.ok(
    first.logs.some((l) => l.msg === 'model download progress' && l.pct > 0 && l.pct < 100),
    'progress logged',
  );
  t.equal(first.server.services.engine.model, 'svc-mh@1.0.0', 'the engine runs the fetched model');
  await first.close();

  await s3.stop();
  const before = s3.requests;
  const second = await startOn(t, { modelUri: uri, dataDir, cache });
  t.equal(s3.requests, before, 'no request to S3');
  t.ok(messages(second.logs).includes('model loaded from cache'), 'served from the cache');
  t.notOk(messages(second.logs).includes('model download started'), 'nothing downloaded');
  t.equal((await second.api.get('/health')).status, 'ok');
  await seedStore(second.api);
  t.equal((await second.api.post('/stores/docs/search', { query: 'zq11' })).passages[0].doc_id, 'd11', 'and searches with it');
});

t.test('a corrupted cached file is detected and fetched again', async (t) => {
  const { s3, v1, uri, cache } = await withS3(t);
  await resolveModel(uri, cache, quiet);
  const file = path.join(cache, 's3', BUCKET, 'svc-mh', '1.0.0', 'extra', 'table-a.bin');
  const buf = fs.readFileSync(file);
  buf[1234] ^= 0xff;
  fs.writeFileSync(file, buf);
  const before = s3.requests;
  const warnings: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  await resolveModel(uri, cache, { info() {}, warn: (msg, fields) => void warnings.push({ msg, fields }) });
  t.equal(warnings[0]?.msg, 'cached model failed verification; fetching it again');
  t.match(warnings[0]?.fields?.error, /table-a\.bin does not match its SHA-256/, 'the corruption is logged with the file');
  t.ok(s3.requests > before, 'fetched again');
  t.same(fs.readFileSync(file), fs.readFileSync(path.join(v1, 'extra', 'table-a.bin')), 'the cached file is whole again');
  t.same(
    fs.readdirSync(cache).filter((n) => n.startsWith('.')),
    [],
    'no temp or trash folder left',
  );
});

t.test('a download that fails midway leaves nothing a later start trusts', async (t) => {
  const { s3, v1, uri, cache } = await withS3(t);
  await s3.remove(BUCKET, 'svc-mh/1.0.0/extra-b.bin');
  await t.rejects(resolveModel(uri, cache, quiet), {
    name: 'ModelSourceError',
    message: `cannot fetch model ${uri}: ${uri}extra-b.bin is listed in manifest.json but does not exist`,
    fix: /Upload the complete version folder/,
  });
  t.same(listFiles(cache), [], 'no cached model and no temp folder (the files fetched before the failure are gone)');

  // A crash mid-download leaves a temp folder behind: it is never used, and the next start removes it.
  const leftover = path.join(cache, `.tmp-${await deadPid()}-abcdef`);
  fs.mkdirSync(path.join(leftover, 'extra'), { recursive: true });
  fs.copyFileSync(path.join(v1, 'manifest.json'), path.join(leftover, 'manifest.json'));
  fs.writeFileSync(path.join(leftover, 'extra', 'table-a.bin'), 'partial');
  await s3.put(BUCKET, 'svc-mh/1.0.0/extra-b.bin', fs.readFileSync(path.join(v1, 'extra-b.bin')));
  const dir = await resolveModel(uri, cache, quiet);
  t.notOk(fs.existsSync(leftover), 'the leftover temp folder is removed');
  t.same(listFiles(dir), listFiles(v1), 'the model is fetched whole');
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

t.test('errors name the URI and the cause, with a fix; nothing is cached', async (t) => {
  const { s3, cache } = await withS3(t);
  const cases: Array<[string, () => Promise<unknown>, RegExp, RegExp]> = [
    [
      'no such bucket',
      () => resolveModel('s3://no-such-bucket/svc-mh/1.0.0/', cache, quiet),
      /^cannot fetch model s3:\/\/no-such-bucket\/svc-mh\/1\.0\.0\/: bucket 'no-such-bucket' does not exist/,
      /bucket name/,
    ],
    [
      'no manifest (the parent folder)',
      () => resolveModel(`s3://${BUCKET}/svc-mh/`, cache, quiet),
      /^cannot fetch model s3:\/\/svc-models\/svc-mh\/: no manifest\.json there/,
      /version folder .*svc-mh\/: 1\.0\.0\//,
    ],
    [
      'no manifest (a version never uploaded)',
      () => resolveModel(`s3://${BUCKET}/svc-mh/9.9.9/`, cache, quiet),
      /no manifest\.json there \(s3:\/\/svc-models\/svc-mh\/9\.9\.9\/manifest\.json does not exist\)/,
      /1\.0\.0\//,
    ],
  ];
  for (const [name, run, message, fix] of cases) {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof ModelSourceError, `${name}: a ModelSourceError`);
    t.match((err as Error).message, message, `${name}: message`);
    t.match((err as ModelSourceError).fix, fix, `${name}: fix`);
  }

  const corrupt = path.join(tempDir(t), '2.0.0');
  makeModelVersion(corrupt, '2.0.0');
  await s3.putFolder(BUCKET, 'svc-mh/2.0.0/', corrupt);
  await s3.put(BUCKET, 'svc-mh/2.0.0/extra-b.bin', Buffer.alloc(EXTRA_FILES['extra-b.bin'], 1));
  await t.rejects(
    resolveModel(`s3://${BUCKET}/svc-mh/2.0.0/`, cache, quiet),
    {
      message: `cannot fetch model s3://${BUCKET}/svc-mh/2.0.0/: s3://${BUCKET}/svc-mh/2.0.0/extra-b.bin does not match its SHA-256 in manifest.json`,
    },
    'hash mismatch',
  );
  await s3.put(BUCKET, 'svc-mh/2.0.0/extra-b.bin', Buffer.alloc(EXTRA_FILES['extra-b.bin'] + 10, 1));
  await t.rejects(
    resolveModel(`s3://${BUCKET}/svc-mh/2.0.0/`, cache, quiet),
    { message: /extra-b\.bin is larger than the 1000 bytes manifest\.json says$/ },
    'size mismatch',
  );

  delete process.env.AWS_ACCESS_KEY_ID;
  delete process.env.AWS_SECRET_ACCESS_KEY;
  await t.rejects(
    resolveModel(`s3://${BUCKET}/svc-mh/1.0.0/`, cache, quiet),
    { message: /^cannot fetch model s3:\/\/svc-models\/svc-mh\/1\.0\.0\/: no usable AWS credentials/, fix: /AWS_ACCESS_KEY_ID/ },
    'missing credentials',
  );
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  delete process.env.AWS_REGION;
  await t.rejects(
    resolveModel(`s3://${BUCKET}/svc-mh/1.0.0/`, cache, quiet),
    { message: /no AWS region is configured/, fix: /AWS_REGION/ },
    'missing region',
  );
  process.env.AWS_REGION = 'us-east-1';

  process.env.AWS_ENDPOINT_URL_S3 = 'http://127.0.0.1:1';
  await t.rejects(
    resolveModel(`s3://${BUCKET}/svc-mh/1.0.0/`, cache, quiet),
    {
      message:
        /^cannot fetch model s3:\/\/svc-models\/svc-mh\/1\.0\.0\/: the connection to http:\/\/127\.0\.0\.1:1 failed \(.*ECONNREFUSED/,
      fix: /AWS_ENDPOINT_URL_S3.*air-gapped/,
    },
    'unreachable endpoint',
  );
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;

  await t.rejects(
    resolveModel('s3://svc-models/a/../b/', cache, quiet),
    { message: /unusable path segment '\.\.'/ },
    'a path that would leave the cache',
  );
  t.same(listFiles(cache), [], 'nothing cached by any failure');
});
