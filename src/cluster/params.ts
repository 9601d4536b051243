// The cluster's tuned constants, in one place (docs/cluster.md explains each). Timings are
// milliseconds unless named otherwise; the node TTL and the replica count are configuration
// (SVC_NODE_TTL_S, SVC_REPLICAS in src/config.ts), not constants.
export const CLUSTER = {
  /** The JetStream stream every write is appended to; one subject per store: `svc.w.<project>.<store>`. */
  stream: 'svc-writes',
  writePrefix: 'svc.w',
  /** Request-reply subjects of one node: `svc.n.<node>.<what>` (op, await, stores). */
  nodePrefix: 'svc.n',
  /** The subject the nodes gossip their per-project request totals on (the cluster-wide rate limit). */
  rateSubject: 'svc.rate',
  /** KV buckets: live nodes (entries expire after the node TTL), the store catalog, API keys. */
  buckets: { nodes: 'svc_nodes', stores: 'svc_stores', keys: 'svc_keys' },
  /** Copies of the stream and buckets kept by the NATS servers: min(this, servers named). */
  maxStreamReplicas: 3,
  /** How often a node renews its membership entry and re-reads the live set. */
  heartbeatMs: 1000,
  /** How long a write waits for its quorum acknowledgement (then 503 cluster_unavailable). */
  publishTimeoutMs: 10_000,
  /** How long a write waits for the live replicas of its store to apply it. */
  applyWaitMs: 30_000,
  /** How long a read forwarded to a node holding the store may take. */
  forwardTimeoutMs: 60_000,
  /** How long a store listing waits for each node's part. */
  listTimeoutMs: 2_000,
  /** How often a node publishes its per-project request totals (the rate limit's staleness). */
  rateGossipMs: 100,
  /** How long a replica keeps the reply of each applied write for the node that published it. */
  outcomeKeepMs: 120_000,
  /** How long a node waits at start for JetStream (a meta leader) before giving up. */
  jetstreamReadyMs: 30_000,
  /**
   * A replica's pull requests: messages asked for at once, and how long one lasts. The client
   * resumes a pull the server ended early (a 409 status) only after two missed heartbeats, half
   * `expires` each: with the default 30 s, writes of 1000 documents stalled a replica for 30 s on
   * nats-server 2.9.10; with 2 s the stall is at most 2 s (docs/cluster.md).
   */
  pull: { max_messages: 8, expires: 2000 },
  /** Pause before a replica makes its consumer again after it ended or failed. */
  feedRestartMs: 500,
  /**
   * A replica that has a write waited for but applied nothing for this long makes its consumer
   * again (seen on nats-server 2.9.10 after one server of three stopped: a consumer that never resumed).
   */
  stallMs: 3000,
  /** Pause before a replica retries a write whose apply failed for a reason other than the request (a storage fault). */
  applyRetryMs: 1000,
  /**
   * A key no node record holds is read from the keys bucket (a key created through another node
   * a moment ago); one read in vain is not repeated for keyMissMs, and at most keyMisses such ids
   * are remembered (then forgotten at once).
   */
  keyMissMs: 1000,
  keyMisses: 10_000,
} as const;
