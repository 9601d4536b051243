// `svc serve --cluster` and `svc keys --cluster` as a user runs them (bin/svc.js, the compiled
// dist/), on one real nats-server: the startup line names the cluster, the node id and the replica
// count; the node id is kept in the data dir across restarts; a key created with `svc keys create
// --cluster` opens the node, and once revoked with `svc keys revoke --cluster` it is refused within 1 s.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { failingChild, startChild } from './helpers/child-server.js';
import { hasNatsServer, startNatsCluster } from './helpers/nats.js';
import { Api, REPO, tempDir } from './helpers/server.js';

if (!hasNatsServer()) {
  t.fail('nats-server is not installed (apt-get install -y nats-server; .ci/run installs it)');
  process.exit(1);
}

const dir = tempDir(t, 'svc-cluster-cli-');
const nats = await startNatsCluster(dir, 1);
t.teardown(() => nats.close());
const svc = (args: string[]) =>
  promisify(execFile)(process.execPath, [path.join(REPO, 'bin', 'svc.js'), ...args], {
    env: { ...process.env, SVC_DATA_DIR: path.join(dir, 'cli-data') },
  });

t.test('the startup line and the node id kept in the data dir', async (t) => {
  const dataDir = path.join(dir, 'node');
  const first = await startChild(dataDir, { args: ['--cluster', nats.urls], env: { SVC_REPLICAS: '2' } });
  const line = /· cluster (\S+) · node (node-[0-9a-f]{8}) · 2 replicas of each store \(1 nodes live/.exec(first.stdout());
  t.ok(line, first.stdout());
  t.equal(line?.[1], nats.urls, 'names the cluster');
  await first.stop();
  const again = await startChild(dataDir, { args: [], env: { SVC_NATS_URL: nats.urls } }); // auth on
  t.match(again.stdout(), `· node ${line?.[2]} ·`, 'the same node id after a restart (SVC_NATS_URL as --cluster)');

  const key = (await svc(['keys', 'create', '--project', 'acme', '--cluster', nats.urls])).stdout.trim();
  const api = new Api(again.url, { authorization: `Bearer ${key}` });
  await api.post('/stores', { name: 'kb' });
  t.equal((await api.get('/stores/kb')).name, 'kb', 'the key made with svc keys --cluster opens the node');
  const listed = JSON.parse((await svc(['keys', 'list', '--json', '--cluster', nats.urls])).stdout) as Array<{ project: string }>;
  t.same(
    listed.map((k) => k.project),
    ['acme'],
    'listed from the cluster',
  );
  t.match((await svc(['keys', 'revoke', key, '--cluster', nats.urls])).stdout, /revoked key \w+ \(project 'acme'\) in the cluster/);
  const revoked = Date.now(); // the node learns it from its watch of the bucket: within 1 s
  let r = await api.raw('GET', '/stores/kb');
  while (r.status === 200 && Date.now() - revoked < 1000) {
    await new Promise((res) => setTimeout(res, 20));
    r = await api.raw('GET', '/stores/kb');
  }
  t.equal(r.status, 401, `refused ${Date.now() - revoked} ms after the revoke returned`);
  t.equal(r.body.error.type, 'unauthorized');
  await again.stop();
});

t.test('a cluster that cannot be reached stops svc serve with the reason and a fix', async (t) => {
  const r = await failingChild(path.join(dir, 'unreachable'), { args: ['--cluster', 'nats://127.0.0.1:9'] });
  t.equal(r.code, 1);
  t.notOk(r.started, 'never ready');
  t.match(r.stderr, /error: cannot reach the NATS servers nats:\/\/127\.0\.0\.1:9/);
  t.match(r.stderr, /fix: Start the NATS servers/);
  const bad = await failingChild(path.join(dir, 'bad'), { args: ['--cluster', 'http://h1'] });
  t.equal(bad.code, 1);
  t.match(bad.stderr, /is not a comma-separated list of nats:\/\/host:port URLs/);
});
