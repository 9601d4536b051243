// `svc ingest <store> <file.jsonl | folder>`: creates the store if needed and streams the documents
// through documents.ingestStream, with progress on stderr and a summary on stdout.
//
// Resuming: every batch's Idempotency-Key is a hash of a fixed scope and the batch's exact body, and
// the source yields the same documents in the same order on every run, so a re-run cuts the same
// batches: those an earlier run completed (within the server's 24 h key retention) are answered
// from the server's record without being written again, the rest are ingested. Document ids are
// deterministic too (relative paths; JSONL ids or text hashes), so no document lands twice under two
// ids. The price: a re-run does not re-send documents deleted meanwhile; --fresh ingests everything
// again (upsert), and a different --batch-size (or, by default, an input of another size, which
// sets the batch size) also cuts different batches.
//
// Ctrl-C: the first stops cleanly (no new batch; the ones in flight finish; exit 130), a second
// aborts the batches in flight (the server applies each whole or not at all).
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { type IngestTotals, MAX_BATCH_DOCS } from '../client/index.js';
import { client, formatDuration, intOption, printJson, secondsOption, withClient } from './client-env.js';
import { openSource } from './ingest-source.js';
import { Progress } from './progress.js';

const RESUME_SCOPE = 'svc-cli-ingest/1';
const STORE_ID = /^st_[a-z2-7]{16}$/;

/** Batches a default run is cut into, at least: the progress moves in steps of about 1%. */
const PROGRESS_STEPS = 100;
const MIN_AUTO_BATCH = 20;

/**
 * The default batch size for `total` documents: total / PROGRESS_STEPS, between MIN_AUTO_BATCH and
 * MAX_BATCH_DOCS. It depends only on the input, so a re-run of the same input cuts the same batches.
 */
export function autoBatchSize(total: number): number {
  return Math.min(MAX_BATCH_DOCS, Math.max(MIN_AUTO_BATCH, Math.ceil(total / PROGRESS_STEPS)));
}

interface IngestOpts {
  concurrency: number;
  batchSize?: number;
  fresh?: boolean;
  progressInterval: number;
  json?: boolean;
}

function summary(store: string, t: IngestTotals, total: number, skipped: string[]): string {
  const secs = t.elapsedMs / 1000;
  const rate = secs > 0 ? Math.round(t.documents / secs) : t.documents;
  const lines = t.stopped
    ? [
        `interrupted: ${t.documents} of ${total} documents ingested into '${store}' (${t.batches} batches) in ${formatDuration(secs)}; run the same command again to resume`,
      ]
    : [
        `ingested ${t.documents} documents into '${store}' in ${secs.toFixed(1)} s (${rate} docs/s, ${t.batches} batch${t.batches === 1 ? '' : 'es'})`,
      ];
  if (t.replayedDocuments > 0) {
    lines.push(
      `  ${t.replayedDocuments} of them were already ingested by an earlier run and not written again (--fresh sends everything again)`,
    );
  }
  if (skipped.length > 0)
    lines.push(
      `  skipped ${skipped.length} empty file${skipped.length === 1 ? '' : 's'}: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}`,
    );
  return `${lines.join('\n')}\n`;
}

export function registerIngest(program: Command): void {
  program
    .command('ingest')
    .alias('import')
    .description('Ingest a .jsonl file or a folder of .txt/.md files into a store (created if needed); re-run to resume')
    .argument('<store>', 'store name (created when missing) or id')
    .argument('<path>', 'a .jsonl file of {"id","text","metadata"} lines, or a folder of .txt/.md files')
    .option('--concurrency <n>', 'batches in flight at once', intOption(1, 64), 4)
    .option(
      '--batch-size <n>',
      `documents per batch, at most ${MAX_BATCH_DOCS} (default: a hundredth of the input, from ${MIN_AUTO_BATCH} to ${MAX_BATCH_DOCS}, so progress moves by about 1%; keep it the same when resuming)`,
      intOption(1, MAX_BATCH_DOCS),
    )
    .option('--fresh', 'ingest every document again instead of skipping batches an earlier run completed')
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', secondsOption, 2)
    .option('--json', 'print the totals as JSON')
    .action(
      withClient(async (storeArg: string, file: string, opts: IngestOpts) => {
        const source = await openSource(file);
        const svc = client();
        // An id names an existing store; a name is created when missing.
        const store = STORE_ID.test(storeArg) ? await svc.stores.get(storeArg) : await svc.stores.getOrCreate(storeArg);
        const stop = new AbortController();
        const abort = new AbortController();
        const onSigint = () => {
          if (!stop.signal.aborted) {
            stop.abort();
            process.stderr.write('\nstopping: letting the batches in flight finish (Ctrl-C again to abort them)\n');
          } else {
            abort.abort();
          }
        };
        process.on('SIGINT', onSigint);
        const progress = new Progress(process.stderr, { total: source.total, intervalMs: opts.progressInterval * 1000 });
        process.stderr.write(`ingesting ${source.description} into '${store.name}' (${store.id})\n`);
        progress.start();
        let totals: IngestTotals;
        let acked = 0;
        try {
          totals = await svc.documents.ingestStream(store.id, source.documents, {
            concurrency: opts.concurrency,
            batchSize: opts.batchSize ?? autoBatchSize(source.total),
            idempotencyScope: opts.fresh ? randomUUID() : RESUME_SCOPE,
            stop: stop.signal,
            signal: abort.signal,
            onProgress: (p) => {
              acked = p.documents;
              progress.update(p.documents);
            },
          });
        } catch (err) {
          progress.stop();
          if (abort.signal.aborted) {
            process.stderr.write(
              `aborted: ${acked} documents confirmed; batches in flight were applied whole or not at all; run the same command again to resume\n`,
            );
            process.exitCode = 130;
            return;
          }
          if (acked > 0)
            process.stderr.write(`${acked} documents were ingested before this; running the same command again resumes after them\n`);
          throw err;
        } finally {
          process.off('SIGINT', onSigint);
        }
        progress.stop();
        if (opts.json) printJson({ store: store.name, ...totals, skipped: source.skipped });
        else process.stdout.write(summary(store.name, totals, source.total, source.skipped));
        if (totals.stopped) process.exitCode = 130;
      }),
    );
}
