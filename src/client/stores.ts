// Store operations. getOrCreate never raises store_already_exists: it reads first, creates when the
// store is missing, and on a 409 (another caller created it in between) reads again; its create may
// be retried like an idempotent call, since a repeat that finds the name taken resolves the same way.
import type { Store, StoreCompaction, StoreList } from '../api-types.js';
import type { CallOptions } from './config.js';
import { StoreAlreadyExistsError, StoreNotFoundError } from './errors.js';
import { type ListOptions, paginate } from './paginate.js';
import type { Transport } from './transport.js';

export class Stores {
  constructor(private readonly transport: Transport) {}

  /** Creates a store; raises StoreAlreadyExistsError when the name is taken (see getOrCreate). */
  async create(name: string, opts?: CallOptions): Promise<Store> {
    return (await this.transport.call('createStore', { body: { name } }, opts)).body;
  }

  /** A store by name or id, with live stats. */
  async get(store: string, opts?: CallOptions): Promise<Store> {
    return (await this.transport.call('getStore', { path: { store } }, opts)).body;
  }

  /** One page of stores, newest first. */
  async list(opts: ListOptions = {}): Promise<StoreList> {
    const { limit, cursor, ...call } = opts;
    return (await this.transport.call('listStores', { query: { limit, cursor } }, call)).body;
  }

  /** Every store, newest first, fetching pages of `limit` as the iteration proceeds. */
  iterate(opts: Omit<ListOptions, 'cursor'> = {}): AsyncGenerator<Store, void, undefined> {
    return paginate(async (cursor) => {
      const page = await this.list({ ...opts, cursor });
      return { items: page.stores, next: page.next_cursor };
    });
  }

  /**
   * Rewrites the store's data file without the free pages deleted and replaced documents left; its
   * size before and after. Writes to the store wait meanwhile. Repeating it is harmless (retried).
   */
  async compact(store: string, opts?: CallOptions): Promise<StoreCompaction> {
    return (await this.transport.call('compactStore', { path: { store } }, { ...opts, idempotent: true })).body;
  }

  /** Deletes a store and all its documents; this cannot be undone. */
  async delete(store: string, opts?: CallOptions): Promise<void> {
    await this.transport.call('deleteStore', { path: { store } }, { ...opts, goneType: 'store_not_found' });
  }

  /** The store named `name`, created when missing. Safe against concurrent callers. */
  async getOrCreate(name: string, opts?: CallOptions): Promise<Store> {
    for (let round = 1; ; round++) {
      try {
        return await this.get(name, opts);
      } catch (err) {
        if (!(err instanceof StoreNotFoundError)) throw err;
      }
      try {
        return (await this.transport.call('createStore', { body: { name } }, { ...opts, idempotent: true })).body;
      } catch (err) {
        // Taken meanwhile by another caller (or by an earlier attempt of ours): read it. A store
        // deleted again in between sends us round once more; three rounds of that is not a race.
        if (!(err instanceof StoreAlreadyExistsError) || round >= 3) throw err;
      }
    }
  }
}
