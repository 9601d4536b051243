// The cluster's entry (issue 33, docs/cluster.md): `clusterStarter` joins a running server to a
// cluster on NATS JetStream (svc serve --cluster), and the key commands work on the cluster's key
// bucket (svc keys with SVC_NATS_URL). Only src/cli imports this folder, and only dynamically, so a
// single node never loads the NATS client.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ClusterStarter } from '../api/index.js';
import type { ClusterConfig } from '../config.js';
import type { KeyRecord } from '../store/index.js';
import { joinNats } from './connection.js';
import { createKey, listKeys, revokeKey } from './keys.js';
import { ClusterNode } from './node.js';

/** This node's id: SVC_NODE_ID, else the one kept in `<dataDir>/cluster-node-id` (made at first start). */
export function nodeIdOf(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'cluster-node-id');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const id = `node-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${id}\n`);
  return id;
}

/** Joins the server to the cluster of `config` once its stores are loaded. */
export function clusterStarter(config: ClusterConfig): ClusterStarter {
  return async (ctx) => {
    const id = nodeIdOf(ctx.dataDir, config.nodeId);
    const nats = await joinNats(config.urls, `svc ${id}`, config.nodeTtlS);
    const node = new ClusterNode(nats, config, id, ctx);
    try {
      await node.start();
    } catch (err) {
      await node.close();
      throw err;
    }
    return node;
  };
}

/** Runs `fn` on the cluster's key bucket. */
async function withKeys<T>(config: ClusterConfig, fn: (kv: Awaited<ReturnType<typeof joinNats>>['keys']) => Promise<T>): Promise<T> {
  const nats = await joinNats(config.urls, 'svc keys', config.nodeTtlS);
  try {
    return await fn(nats.keys);
  } finally {
    await nats.nc.close();
  }
}

export const clusterKeys = {
  create: (config: ClusterConfig, project: string) => withKeys(config, (kv) => createKey(kv, project)),
  revoke: (config: ClusterConfig, keyOrId: string): Promise<KeyRecord | undefined> => withKeys(config, (kv) => revokeKey(kv, keyOrId)),
  list: (config: ClusterConfig) => withKeys(config, listKeys),
};
