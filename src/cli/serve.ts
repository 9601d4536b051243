// `svc serve`: runs the server on the configured data dir and model until SIGINT/SIGTERM, printing
// one startup line (version and engine, model and cache, data dir and project, auth, address, the
// web console's URL; in a cluster, the cluster, this node's id and the replica count).
// The server (express, lmdb, the engine) is imported only when `serve` runs, so client commands
// start fast; the NATS client (src/cluster) only with --cluster or SVC_NATS_URL.
import type { Command } from 'commander';
import type { RunningServer } from '../api/index.js';
import { clusterConfig, loadConfig, SERVER_VARIABLES, VERSION } from '../config.js';
import { CliError } from './cli-error.js';

/** The SVC_ variables with their defaults, after the options in `svc serve --help`. */
function variablesHelp(): string {
  const width = Math.max(...SERVER_VARIABLES.map((v) => v.name.length));
  const lines = SERVER_VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning} (default: ${v.default})`);
  return `\nEnvironment (read once at start; docs/configuration.md):\n${lines.join('\n')}\n`;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the search server (configured by SVC_* environment variables)')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--host <host>', 'address to bind (default 0.0.0.0, or 127.0.0.1 with --no-auth)')
    .option('--no-auth', 'disable API keys: anyone who can reach the port can read and write every store')
    .option('--cluster <urls>', 'join the cluster on these NATS servers (comma-separated nats://host:port; as SVC_NATS_URL)')
    .addHelpText('after', variablesHelp)
    .action(async (opts: { port: string; host?: string; auth: boolean; cluster?: string }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CliError(`--port ${opts.port} is not a port number`, 'Use an integer from 0 to 65535.');
      const config = loadConfig();
      if (opts.cluster) config.cluster = clusterConfig(opts.cluster);
      const noAuth = !opts.auth;
      const host = opts.host ?? (noAuth ? '127.0.0.1' : '0.0.0.0');
      const { startServer } = await import('../api/index.js');
      const { DataDirLockedError, StorageError } = await import('../store/index.js');
      const cluster = config.cluster && (await import('../cluster/index.js')).clusterStarter(config.cluster);
      let server: RunningServer;
      try {
        server = await startServer({ config, port, host, noAuth, cluster });
      } catch (err) {
        if (err instanceof DataDirLockedError) {
          throw new CliError(
            err.message,
            `Stop the other server, or give this one another SVC_DATA_DIR. If no svc server runs there (pid ${err.pid} is another program), remove ${err.lockFile}.`,
          );
        }
        if (err instanceof StorageError) {
          const fix =
            err.fault === 'full'
              ? `Free space on the volume holding ${err.dir}, or point SVC_DATA_DIR at a larger one.`
              : `Make ${err.dir} writable by this user (mount it read-write, fix its owner or mode), or point SVC_DATA_DIR at a writable directory.`;
          throw new CliError(err.message, fix);
        }
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
          throw new CliError(`port ${port} is in use`, 'Stop whatever listens there, or pass another --port.');
        throw err;
      }
      const { services } = server;
      const nKeys = services.keys.activeCount();
      const auth = noAuth
        ? 'auth: OFF (--no-auth)'
        : services.cluster
          ? "auth: on (the cluster's keys and this data dir's)"
          : `auth: on (${nKeys} key${nKeys === 1 ? '' : 's'})`;
      const clusterLine = services.cluster ? ` · ${services.cluster.describe()}` : '';
      process.stdout.write(
        `svc ${VERSION} · engine ${services.engine.id} · model ${config.modelUri} (cache ${config.modelCache}) · data ${config.dataDir} (project ${config.project}) · ${auth}${clusterLine} · listening on ${host}:${server.port}, API at ${server.url}, console at ${server.url.replace(/\/v1$/, '/console/')}\n`,
      );
      if (noAuth) {
        process.stderr.write(
          `WARNING: authentication is OFF (--no-auth): anyone who can reach ${host}:${server.port} can read and write every store. Use it only for local development.\n`,
        );
      } else if (nKeys === 0 && !services.cluster) {
        process.stderr.write(
          "note: no API keys exist yet; every request will get 401. Create one with 'svc keys create --project <project>'.\n",
        );
      }
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`${signal}: shutting down\n`);
        server.close().then(
          () => process.exit(0),
          (err) => {
            process.stderr.write(`error during shutdown: ${(err as Error).message}\n`);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    });
}
