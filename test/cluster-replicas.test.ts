// A node's replicas once closed (src/cluster/replicas.ts), over a real JetStream server: close stops
// every feed, and no feed starts after it, as a heartbeat, a catalog entry or a forwarded request in
// flight at close would otherwise start one whose consumer retries on the closed connection
// forever and keeps the process from exiting (seen in CI: a node closing while its heartbeat
// listed the nodes closing beside it).
import { pino } from 'pino';
import t from 'tap';
import { joinNats } from '../src/cluster/connection.js';
import { NotReplicaError, Replicas } from '../src/cluster/replicas.js';
import { hasNatsServer, startNatsCluster } from './helpers/nats.js';
import { tempDir } from './helpers/server.js';

if (!hasNatsServer()) {
  t.fail('nats-server is not installed (apt-get install -y nats-server; .ci/run installs it)');
  process.exit(1);
}

t.test('closed replicas follow nothing and start no feed', async (t) => {
  const dir = tempDir(t, 'svc-replicas-');
  const nats = await startNatsCluster(dir, 1);
  t.teardown(() => nats.close());
  const conn = await joinNats([nats.urls], 'replicas-test', 5);
  t.teardown(() => conn.nc.close());
  const replicas = new Replicas(conn.js, conn.jsm, async () => ({ status: 200, body: {} }), dir, pino({ level: 'silent' }));
  replicas.follow('acme.a');
  replicas.follow('acme.b');
  t.same(replicas.following(), ['acme.a', 'acme.b']);
  await replicas.close();
  t.same(replicas.following(), [], 'close stops every feed');
  t.throws(() => replicas.follow('acme.a'), NotReplicaError, 'no feed starts after close');
  await t.rejects(replicas.ready('acme.c', 1000), NotReplicaError, 'a wait after close ends at once');
  t.same(replicas.following(), []);
});
