// The HTTP layer's entry: a whole server (data-dir lock, keys, engine, stores, HTTP) started and
// stopped by `svc serve`, and what a cluster implementation (src/cluster) plugs into it.
export type { ClusterHooks, ClusterRequest, RoutedReply, SharedUsage } from './cluster-hooks.js';
export type { ClusterContext, ClusterStarter, Invoke, InvokeRequest, Reply } from './context.js';
export { storeBody, storesPage } from './handlers-stores.js';
export { KEEP_ALIVE_MS, type RunningServer, type ServerOptions, startServer } from './server.js';
