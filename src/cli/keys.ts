// `svc keys create|list|revoke`: manage API keys in the data dir (SVC_DATA_DIR) of the server host.
// A running server sees changes at once. The secret is printed once, by `create`, on stdout alone.
// With SVC_NATS_URL (or --cluster) the keys are the cluster's (its KV bucket, docs/cluster.md): every
// node sees a created or revoked key within a second. The store layer (and lmdb with it), or the NATS
// client, is loaded only when a keys command runs.
import type { Command } from 'commander';
import { type ClusterConfig, clusterConfig, loadConfig, NAME_RE } from '../config.js';
import { CliError } from './cli-error.js';

/** The cluster whose keys a command manages (--cluster, else SVC_NATS_URL); undefined: the data dir's. */
function clusterOf(opts: { cluster?: string }): ClusterConfig | undefined {
  return opts.cluster ? clusterConfig(opts.cluster) : loadConfig().cluster;
}

const CLUSTER_OPTION = ['--cluster <urls>', "the cluster's keys (NATS servers, comma-separated; as SVC_NATS_URL)"] as const;

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('Manage API keys (stored hashed in SVC_DATA_DIR/keys.json, or in the cluster with SVC_NATS_URL)');

  keys
    .command('create')
    .description('Create an API key for a project and print it once')
    .option('--project <project>', 'project the key gives access to (default: SVC_PROJECT or "default")')
    .option(...CLUSTER_OPTION)
    .action(async (opts: { project?: string; cluster?: string }) => {
      const config = loadConfig();
      const project = opts.project ?? config.project;
      if (!NAME_RE.test(project)) throw new CliError(`'${project}' is not a valid project name`, 'Use 1 to 64 characters of [a-z0-9-_].');
      const cluster = clusterOf(opts);
      if (cluster) {
        const { clusterKeys } = await import('../cluster/index.js');
        const { key, record } = await clusterKeys.create(cluster, project);
        process.stdout.write(`${key}\n`);
        process.stderr.write(`Created key ${record.id} for project '${project}' in the cluster. Keep it now: it is not shown again.\n`);
        return;
      }
      const { KeyRing } = await import('../store/index.js');
      const { key, record } = new KeyRing(config.dataDir).create(project);
      process.stdout.write(`${key}\n`);
      process.stderr.write(`Created key ${record.id} for project '${project}' in ${config.dataDir}. Keep it now: it is not shown again.\n`);
    });

  keys
    .command('list')
    .description('List keys: id, prefix, project, created, status (never the secret)')
    .option('--json', 'print JSON')
    .option(...CLUSTER_OPTION)
    .action(async (opts: { json?: boolean; cluster?: string }) => {
      const cluster = clusterOf(opts);
      const records = cluster
        ? await (await import('../cluster/index.js')).clusterKeys.list(cluster)
        : new (await import('../store/index.js')).KeyRing(loadConfig().dataDir).list();
      const list = records.map(({ sha256: _hash, ...k }) => k);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      if (list.length === 0) {
        process.stdout.write("no keys; create one with 'svc keys create --project <project>'\n");
        return;
      }
      const rows = [
        ['ID', 'PREFIX', 'PROJECT', 'CREATED', 'STATUS'],
        ...list.map((k) => [k.id, `${k.prefix}…`, k.project, k.created_at, k.revoked_at ? `revoked ${k.revoked_at}` : 'active']),
      ];
      const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
      for (const r of rows)
        process.stdout.write(
          `${r
            .map((c, i) => c.padEnd(widths[i]))
            .join('  ')
            .trimEnd()}\n`,
        );
    });

  keys
    .command('revoke')
    .description('Revoke a key (give the key itself or its id); a running server refuses it at once')
    .argument('<API_KEY>', 'the key, or its id as shown by `svc keys list`')
    .option(...CLUSTER_OPTION)
    .action(async (key: string, opts: { cluster?: string }) => {
      const cluster = clusterOf(opts);
      if (cluster) {
        const rec = await (await import('../cluster/index.js')).clusterKeys.revoke(cluster, key);
        if (!rec)
          throw new CliError(
            `no API key of the cluster matches ${key.slice(0, 12)}`,
            "List keys with 'svc keys list' and pass the full key or its id.",
          );
        process.stdout.write(`revoked key ${rec.id} (project '${rec.project}') in the cluster\n`);
        return;
      }
      const { KeyNotFoundError, KeyRing } = await import('../store/index.js');
      try {
        const rec = new KeyRing(loadConfig().dataDir).revoke(key);
        process.stdout.write(`revoked key ${rec.id} (project '${rec.project}')\n`);
      } catch (err) {
        if (err instanceof KeyNotFoundError)
          throw new CliError(err.message, "List keys with 'svc keys list' and pass the full key or its id.");
        throw err;
      }
    });
}
