// The connection to the NATS servers and the JetStream objects the cluster keeps there: the write
// stream and the three KV buckets, made by whichever node comes first (the same configuration from
// every node, so a second `add` finds the first). Invariant: `joinNats` returns only once JetStream
// answers (a meta leader is elected), or throws after CLUSTER.jetstreamReadyMs.
import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CLUSTER } from './params.js';

export interface Nats {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  nodes: KV;
  stores: KV;
  keys: KV;
  /** Copies the servers keep of the stream and buckets. */
  streamReplicas: number;
}

/** A cluster that cannot be joined; `svc` prints the message and the fix. */
export class ClusterJoinError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'ClusterJoinError';
  }
}

const JETSTREAM_FIX =
  'Run the NATS servers with JetStream on (deploy/nats.conf) and keep a majority of them up; check SVC_NATS_URL (or --cluster).';

async function retrying<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + CLUSTER.jetstreamReadyMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw new ClusterJoinError(`${what}: ${(err as Error).message}`, JETSTREAM_FIX);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Connects to `urls` and makes sure the stream and buckets exist; `nodeTtlS` is the nodes bucket's TTL. */
export async function joinNats(urls: string[], name: string, nodeTtlS: number): Promise<Nats> {
  const nc = await connect({ servers: urls, name, maxReconnectAttempts: -1, reconnectTimeWait: 250 }).catch((err: Error) => {
    throw new ClusterJoinError(
      `cannot reach the NATS servers ${urls.join(',')}: ${err.message}`,
      'Start the NATS servers (nats-server with JetStream, clustered: deploy/nats.conf), or correct SVC_NATS_URL (or --cluster).',
    );
  });
  try {
    const replicas = Math.min(CLUSTER.maxStreamReplicas, urls.length);
    const jsm = await retrying('JetStream did not answer', () => jetstreamManager(nc, { timeout: 2000 }));
    await retrying('the write stream could not be made', async () => {
      try {
        await jsm.streams.info(CLUSTER.stream);
      } catch {
        await jsm.streams.add({ name: CLUSTER.stream, subjects: [`${CLUSTER.writePrefix}.>`], num_replicas: replicas });
      }
    });
    const kvm = new Kvm(nc);
    const bucket = (bucketName: string, ttlMs?: number) =>
      retrying(`KV bucket ${bucketName} could not be made`, () => kvm.create(bucketName, { replicas, history: 1, ttl: ttlMs }));
    const nodes = await bucket(CLUSTER.buckets.nodes, nodeTtlS * 1000);
    const stores = await bucket(CLUSTER.buckets.stores);
    const keys = await bucket(CLUSTER.buckets.keys);
    return { nc, js: jetstream(nc), jsm, nodes, stores, keys, streamReplicas: replicas };
  } catch (err) {
    await nc.close();
    throw err;
  }
}

/** Every key of a bucket. */
export async function bucketKeys(kv: KV, filter = '>'): Promise<string[]> {
  const out: string[] = [];
  for await (const k of await kv.keys(filter)) out.push(k);
  return out;
}
