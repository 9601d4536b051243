// Rendezvous (highest random weight) placement: the replicas of a store are the `n` live nodes with
// the highest hash of (node, store key). Invariants: every node computes the same answer from the
// same live set; a node joining or leaving moves only the stores it gains or held.
import { createHash } from 'node:crypto';

function weight(node: string, key: string): number {
  return createHash('sha256').update(`${node}\0${key}`).digest().readUIntBE(0, 6);
}

/** The nodes holding `key` among `nodes`, best first (at most `n`). */
export function placeReplicas(key: string, nodes: readonly string[], n: number): string[] {
  return nodes
    .map((id) => ({ id, w: weight(id, key) }))
    .sort((a, b) => b.w - a.w || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((x) => x.id);
}

/** The store key (`<project>.<name>`, also the tail of its log subject and its catalog key). */
export function storeKey(project: string, name: string): string {
  return `${project}.${name}`;
}
