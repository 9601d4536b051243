// `svc docs list|get|delete|patch`: the documents of a store on the server at SVC_BASE_URL. list
// shows the most recently ingested first, --limit of them (default 20) or --all, --where a filter
// matches; delete takes one id or --where; patch sets and unsets metadata keys. Ids are passed as
// typed (the client URL-encodes them).
import { type Command, InvalidArgumentError } from 'commander';
import type { DocumentSummary, Filter, Metadata, MetadataValue } from '../client/index.js';
import { CliError } from './cli-error.js';
import { client, formatMetadata, intOption, parseFilter, parseWhere, printJson, printTable, withClient } from './client-env.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerDocs(program: Command): void {
  const docs = program.command('docs').description('List, show, update and delete the documents of a store');

  docs
    .command('list')
    .description('List documents, most recently ingested first')
    .argument('<store>', 'store name or id')
    .option('--limit <n>', 'how many to show (default 20)', intOption(1, Number.MAX_SAFE_INTEGER))
    .option('--all', 'show every document')
    .option('--where <json>', 'only the documents a filter matches, e.g. \'{"team": "a"}\'', parseWhere)
    .option('--json', 'print a JSON array')
    .action(
      withClient(async (store: string, opts: { limit?: number; all?: boolean; where?: Filter; json?: boolean }) => {
        const limit = opts.all ? Infinity : (opts.limit ?? 20);
        const shown: DocumentSummary[] = [];
        let more = false;
        const page = Math.min(100, limit === Infinity ? 100 : limit + 1);
        for await (const d of client().documents.iterate(store, { limit: page, filter: opts.where })) {
          if (shown.length >= limit) {
            more = true;
            break;
          }
          shown.push(d);
        }
        if (opts.json) printJson(shown);
        else if (shown.length === 0 && opts.where) process.stdout.write(`no document in '${store}' matches the filter\n`);
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
          ['updated', d.updated_at],
          ['metadata', formatMetadata(d.metadata) || '(none)'],
        ]);
        if (d.text !== undefined) process.stdout.write(`\n${d.text}${d.text.endsWith('\n') ? '' : '\n'}`);
      }),
    );

  docs
    .command('delete')
    .description('Delete a document, or every document a filter matches (--where), with their encodings')
    .argument('<store>', 'store name or id')
    .argument('[id]', 'document id')
    .option('--where <json>', 'delete every document this filter matches, in one transaction', parseWhere)
    .action(
      withClient(async (store: string, id: string | undefined, opts: { where?: Filter }) => {
        if ((id === undefined) === (opts.where === undefined))
          throw new CliError(
            'give a document id or --where, not both and not neither',
            `svc docs delete ${store} <id>, or svc docs delete ${store} --where '{"team": "a"}'`,
          );
        if (opts.where) {
          const n = await client().documents.deleteMany(store, { filter: opts.where });
          process.stdout.write(`deleted ${n} document${n === 1 ? '' : 's'} from '${store}'\n`);
          return;
        }
        await client().documents.delete(store, id!);
        process.stdout.write(`deleted document '${id}' from '${store}'\n`);
      }),
    );

  docs
    .command('patch')
    .description('Set and remove metadata keys of a document (a change of title re-encodes it from its stored text)')
    .argument('<store>', 'store name or id')
    .argument('<id>', 'document id')
    .option('--set <key=value>', 'set a key (repeatable; numbers, true and false are typed, "quote" to keep a string)', parseFilter)
    .option('--unset <key>', 'remove a key (repeatable)', collect)
    .option('--json', 'print the document as JSON')
    .action(
      withClient(async (store: string, id: string, opts: { set?: Metadata; unset?: string[]; json?: boolean }) => {
        const patch: Record<string, MetadataValue | null> = { ...opts.set };
        for (const k of opts.unset ?? []) {
          if (Object.hasOwn(patch, k)) throw new InvalidArgumentError(`'${k}' is both set and unset`);
          patch[k] = null;
        }
        if (Object.keys(patch).length === 0)
          throw new CliError('nothing to change', `svc docs patch ${store} ${id} --set key=value --unset other_key`);
        const d = await client().documents.patch(store, id, patch);
        if (opts.json) return printJson(d);
        process.stdout.write(`updated '${id}' in '${store}': ${formatMetadata(d.metadata) || '(no metadata)'}\n`);
      }),
    );
}
