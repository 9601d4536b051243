// `svc docs list|get|delete`: the documents of a store on the server at SVC_BASE_URL. list shows the
// most recently ingested first, --limit of them (default 20) or --all; ids are passed as typed
// (the client URL-encodes them).
import type { Command } from 'commander';
import type { DocumentSummary } from '../client/index.js';
import { client, formatMetadata, intOption, printJson, printTable, withClient } from './client-env.js';

export function registerDocs(program: Command): void {
  const docs = program.command('docs').description('List, show and delete the documents of a store');

  docs
    .command('list')
    .description('List documents, most recently ingested first')
    .argument('<store>', 'store name or id')
    .option('--limit <n>', 'how many to show (default 20)', intOption(1, Number.MAX_SAFE_INTEGER))
    .option('--all', 'show every document')
    .option('--json', 'print a JSON array')
    .action(
      withClient(async (store: string, opts: { limit?: number; all?: boolean; json?: boolean }) => {
        const limit = opts.all ? Infinity : (opts.limit ?? 20);
        const shown: DocumentSummary[] = [];
        let more = false;
        for await (const d of client().documents.iterate(store, { limit: Math.min(100, limit === Infinity ? 100 : limit + 1) })) {
          if (shown.length >= limit) {
            more = true;
            break;
          }
          shown.push(d);
        }
        if (opts.json) printJson(shown);
        else if (shown.length === 0)
          process.stdout.write(`no documents in '${store}'; add some with 'svc ingest ${store} <file.jsonl | folder>'\n`);
        else
          printTable([
            ['ID', 'TOKENS', 'INGESTED', 'METADATA'],
            ...shown.map((d) => [d.id, String(d.n_tokens), d.ingested_at, formatMetadata(d.metadata)]),
          ]);
        if (more) process.stderr.write(`(first ${shown.length} shown; --limit <n> or --all for more)\n`);
      }),
    );

  docs
    .command('get')
    .description("Show a document's metadata, token count and ingestion time")
    .argument('<store>', 'store name or id')
    .argument('<id>', 'document id')
    .option('--text', 'print the full text too')
    .option('--json', 'print JSON')
    .action(
      withClient(async (store: string, id: string, opts: { text?: boolean; json?: boolean }) => {
        const d = await client().documents.get(store, id, { include_text: opts.text === true });
        if (opts.json) return printJson(d);
        printTable([
          ['id', d.id],
          ['tokens', String(d.n_tokens)],
          ['ingested', d.ingested_at],
          ['metadata', formatMetadata(d.metadata) || '(none)'],
        ]);
        if (d.text !== undefined) process.stdout.write(`\n${d.text}${d.text.endsWith('\n') ? '' : '\n'}`);
      }),
    );

  docs
    .command('delete')
    .description('Delete a document and its encoding')
    .argument('<store>', 'store name or id')
    .argument('<id>', 'document id')
    .action(
      withClient(async (store: string, id: string) => {
        await client().documents.delete(store, id);
        process.stdout.write(`deleted document '${id}' from '${store}'\n`);
      }),
    );
}
