// The HTTP layer's entry: a whole server (data-dir lock, keys, engine, stores, HTTP) started and
// stopped by `svc serve`.
export { KEEP_ALIVE_MS, type RunningServer, type ServerOptions, startServer } from './server.js';
