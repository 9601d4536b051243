// The cluster's pure parts: rendezvous placement (every node computes the same replicas; a node
// joining or leaving moves only the stores it gains or held; stores spread over the nodes) and the
// cluster configuration (SVC_NATS_URL, SVC_REPLICAS, SVC_NODE_TTL_S, SVC_NODE_ID: bad values stop the
// server with a message naming them; without SVC_NATS_URL there is no cluster).
import t from 'tap';
import { placeReplicas } from '../src/cluster/placement.js';
import { ConfigError, clusterConfig, loadConfig } from '../src/config.js';

const stores = Array.from({ length: 2000 }, (_, i) => `acme.store-${i}`);

t.test('placement is a function of the live set, balanced, and moves little', async (t) => {
  const nodes = ['n1', 'n2', 'n3', 'n4'];
  for (const s of stores.slice(0, 50)) {
    const r = placeReplicas(s, nodes, 2);
    t.equal(new Set(r).size, 2);
    t.same(placeReplicas(s, [...nodes].reverse(), 2), r, 'the order of the live set does not matter');
  }
  const load = new Map<string, number>();
  for (const s of stores) for (const n of placeReplicas(s, nodes, 2)) load.set(n, (load.get(n) ?? 0) + 1);
  for (const n of nodes) t.ok(Math.abs(load.get(n)! - 1000) < 120, `${n} holds ${load.get(n)} of 4000 copies (1000 each if even)`);
  let moved = 0;
  let disturbed = 0;
  for (const s of stores) {
    const before = placeReplicas(s, nodes, 2);
    const after = placeReplicas(s, ['n1', 'n2', 'n4'], 2);
    if (before.includes('n3')) moved++;
    else if (JSON.stringify(after) !== JSON.stringify(before)) disturbed++;
  }
  t.equal(disturbed, 0, 'a store n3 did not hold stays where it was');
  t.ok(moved > 800 && moved < 1200, `${moved} stores had a copy on n3 and got one elsewhere`);
  t.same(placeReplicas('acme.x', ['n1'], 2), ['n1'], 'fewer nodes than replicas: every node');
});

t.test('cluster configuration', async (t) => {
  t.equal(loadConfig({}).cluster, undefined, 'no SVC_NATS_URL: a single node');
  t.same(loadConfig({ SVC_NATS_URL: 'nats://a:4222, nats://b:4222' }).cluster, {
    urls: ['nats://a:4222', 'nats://b:4222'],
    replicas: 2,
    nodeTtlS: 5,
    nodeId: undefined,
  });
  t.same(clusterConfig('nats://a:4222', { SVC_REPLICAS: '3', SVC_NODE_TTL_S: '10', SVC_NODE_ID: 'svc-0' }), {
    urls: ['nats://a:4222'],
    replicas: 3,
    nodeTtlS: 10,
    nodeId: 'svc-0',
  });
  t.throws(() => clusterConfig('http://a:4222'), ConfigError);
  t.throws(() => clusterConfig(' , '), ConfigError);
  t.throws(() => clusterConfig('nats://a:4222', { SVC_REPLICAS: '0' }), { message: /SVC_REPLICAS=0/ });
  t.throws(() => clusterConfig('nats://a:4222', { SVC_NODE_TTL_S: '1' }), { message: /SVC_NODE_TTL_S=1/ });
  t.throws(() => clusterConfig('nats://a:4222', { SVC_NODE_ID: 'Node 1' }), { message: /SVC_NODE_ID=Node 1/ });
});
