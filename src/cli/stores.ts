// `svc stores create|list|get|delete`: stores of the server at SVC_BASE_URL (key: SVC_API_KEY).
// Deleting a store cannot be undone, so delete asks on a terminal and otherwise requires --yes.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { Store } from '../client/index.js';
import { CliError } from './cli-error.js';
import { client, formatBytes, printJson, printTable, withClient } from './client-env.js';

function printStore(s: Store): void {
  printTable([
    ['name', s.name],
    ['id', s.id],
    ['documents', String(s.n_docs)],
    ['size', `${formatBytes(s.size_bytes)} (${s.size_bytes} bytes)`],
    ['created', s.created_at],
  ]);
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export function registerStores(program: Command): void {
  const stores = program.command('stores').description('Manage the stores of the server at SVC_BASE_URL');

  stores
    .command('create')
    .description('Create a store')
    .argument('<name>', '1 to 64 characters of [a-z0-9-_]')
    .option('--json', 'print the store as JSON')
    .action(
      withClient(async (name: string, opts: { json?: boolean }) => {
        const s = await client().stores.create(name);
        if (opts.json) printJson(s);
        else process.stdout.write(`created store '${s.name}' (${s.id})\n`);
      }),
    );

  stores
    .command('list')
    .description('List every store, newest first')
    .option('--json', 'print a JSON array')
    .action(
      withClient(async (opts: { json?: boolean }) => {
        const all: Store[] = [];
        for await (const s of client().stores.iterate({ limit: 100 })) all.push(s);
        if (opts.json) return printJson(all);
        if (all.length === 0) {
          process.stdout.write("no stores; create one with 'svc stores create <name>'\n");
          return;
        }
        printTable([
          ['NAME', 'ID', 'DOCS', 'SIZE', 'CREATED'],
          ...all.map((s) => [s.name, s.id, String(s.n_docs), formatBytes(s.size_bytes), s.created_at]),
        ]);
      }),
    );

  stores
    .command('get')
    .description('Show a store with its live stats')
    .argument('<store>', 'store name or id')
    .option('--json', 'print JSON')
    .action(
      withClient(async (store: string, opts: { json?: boolean }) => {
        const s = await client().stores.get(store);
        if (opts.json) printJson(s);
        else printStore(s);
      }),
    );

  stores
    .command('delete')
    .description('Delete a store and all its documents (cannot be undone)')
    .argument('<store>', 'store name or id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      withClient(async (store: string, opts: { yes?: boolean }) => {
        const svc = client();
        if (!opts.yes) {
          const s = await svc.stores.get(store);
          const what = `store '${s.name}' and its ${s.n_docs} document${s.n_docs === 1 ? '' : 's'}`;
          if (!process.stdin.isTTY)
            throw new CliError(
              `not deleting ${what} without confirmation`,
              `Pass --yes to delete it: 'svc stores delete ${store} --yes' (this cannot be undone).`,
            );
          if (!(await confirm(`Delete ${what}? This cannot be undone. [y/N] `))) {
            process.stderr.write('not deleted\n');
            return;
          }
        }
        await svc.stores.delete(store);
        process.stdout.write(`deleted store '${store}'\n`);
      }),
    );
}
