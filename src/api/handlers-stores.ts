// Store endpoints: create, list (newest first, cursor = position after the last store returned),
// get (live counts of an open store; a closed one's as of its close: listing opens nothing), compact,
// delete.
import type { Store, StoreList } from '../api-types.js';
import type { Handler } from './context.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { StoreEntry, StoreRegistry } from './store-registry.js';

export function storeBody(registry: StoreRegistry, e: StoreEntry): Store {
  const m = e.meta;
  const { docs, bytes } = registry.counts(e);
  return { id: m.id, name: m.name, n_docs: docs, size_bytes: bytes, created_at: m.created_at };
}

type StorePos = [string, string]; // [created_at, id]
const isStorePos = (p: unknown): p is StorePos => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string');

/** Newest first; ties on created_at broken by id, descending. */
function compare(a: StorePos, b: StorePos): number {
  return a[0] === b[0] ? (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0) : a[0] < b[0] ? 1 : -1;
}

export const createStore: Handler<'createStore'> = async (ctx) => {
  const { registry } = ctx.services;
  return { status: 201, body: storeBody(registry, await registry.create(ctx.project, ctx.body.name)) };
};

/** One page of `stores` (newest first) after the `cursor` of the previous page. */
export function storesPage(stores: Store[], cursor: string | undefined, limit: number): StoreList {
  const after = decodeCursor('stores', cursor, isStorePos);
  const sorted = stores
    .map((s) => ({ s, pos: [s.created_at, s.id] as StorePos }))
    .sort((a, b) => compare(a.pos, b.pos))
    .filter((x) => !after || compare(x.pos, after) > 0);
  const page = sorted.slice(0, limit);
  const next = sorted.length > limit ? encodeCursor('stores', page[page.length - 1].pos) : null;
  return { stores: page.map((x) => x.s), next_cursor: next };
}

export const listStores: Handler<'listStores'> = (ctx) => {
  const { registry } = ctx.services;
  const all = registry.list(ctx.project).map((e) => storeBody(registry, e));
  return { status: 200, body: storesPage(all, ctx.query.cursor, ctx.query.limit) };
};

export const getStore: Handler<'getStore'> = (ctx) => ({
  status: 200,
  body: storeBody(ctx.services.registry, ctx.services.registry.entry(ctx.project, ctx.params.store)),
});

export const compactStore: Handler<'compactStore'> = async (ctx) => {
  const { registry } = ctx.services;
  const r = await registry.compact(ctx.project, ctx.params.store);
  return {
    status: 200,
    body: { store: storeBody(registry, r.store), file_bytes_before: r.before, file_bytes_after: r.after, ms: r.ms },
  };
};

export const deleteStore: Handler<'deleteStore'> = async (ctx) => {
  await ctx.services.registry.delete(ctx.project, ctx.params.store);
  return { status: 204 };
};
