// `svc export <store>`: every document of a store as JSON lines on stdout (id, text, metadata), from
// one consistent snapshot of the server's, so `svc export s > s.jsonl` runs while writes go on; the
// file is what `svc import` (and `svc ingest`) take back. Output is written as it arrives, waiting
// when stdout is slow; a closed pipe (`| head`) ends it quietly.
import type { Command } from 'commander';
import { client, withClient } from './client-env.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Write every document of a store to stdout as JSON lines, from one consistent snapshot (svc import reads it back)')
    .argument('<store>', 'store name or id')
    .action(
      withClient(async (store: string) => {
        const stop = new AbortController();
        let outputError: NodeJS.ErrnoException | undefined;
        process.stdout.once('error', (err: NodeJS.ErrnoException) => {
          outputError = err;
          stop.abort();
        });
        let n = 0;
        try {
          for await (const doc of client().documents.export(store, { signal: stop.signal })) {
            if (!process.stdout.write(`${JSON.stringify(doc)}\n`))
              await new Promise((r) => process.stdout.once('drain', r).once('error', r));
            if (outputError) break;
            n++;
          }
        } catch (err) {
          if (!stop.signal.aborted) throw err;
        }
        // a reader that stopped early (| head) is not a failure; any other output error is
        if (outputError && outputError.code !== 'EPIPE') throw outputError;
        if (outputError) return;
        process.stderr.write(`exported ${n} document${n === 1 ? '' : 's'} of '${store}'\n`);
      }),
    );
}
