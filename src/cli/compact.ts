// `svc compact [store]`: rewrites a store's data file on the server at SVC_BASE_URL without the free
// pages deleted and replaced documents left, or every store of the project, one after another,
// without a name. Writes to a store wait while it is compacted; searches go on. The server also
// compacts a store by itself once its free pages pass half its file.
import type { Command } from 'commander';
import type { StoreCompaction } from '../client/index.js';
import { client, formatBytes, printJson, withClient } from './client-env.js';

function line(c: StoreCompaction): string {
  const { file_bytes_before: before, file_bytes_after: after } = c;
  return `compacted '${c.store.name}': ${formatBytes(before)} -> ${formatBytes(after)} (${c.ms} ms)\n`;
}

export function registerCompact(program: Command): void {
  program
    .command('compact')
    .description("Rewrite a store's data file without the space deleted and replaced documents left (every store without a name)")
    .argument('[store]', 'store name or id (default: every store of the project)')
    .option('--json', 'print a JSON array of the compactions')
    .action(
      withClient(async (store: string | undefined, opts: { json?: boolean }) => {
        const names: string[] = [];
        if (store) names.push(store);
        else for await (const s of client().stores.iterate({ limit: 100 })) names.push(s.id);
        const done: StoreCompaction[] = [];
        for (const name of names) {
          const c = await client().stores.compact(name);
          done.push(c);
          if (!opts.json) process.stdout.write(line(c));
        }
        if (opts.json) printJson(done);
        else if (names.length === 0) process.stdout.write("no stores; create one with 'svc stores create <name>'\n");
      }),
    );
}
