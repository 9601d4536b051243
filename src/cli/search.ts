// `svc search <store> "<query>"`: passages grouped by the hop that found them, with scores, then
// the confidence, hops used, server latency and (with --trace) the trace; --json prints the
// response as the server sent it.
import { type Command, Option } from 'commander';
import type { Filter, Metadata, SearchRequest, SearchResult } from '../client/index.js';
import { client, combineFilters, formatMetadata, intOption, parseFilter, parseWhere, printJson, withClient } from './client-env.js';

interface SearchOpts {
  hops?: number;
  results?: number;
  /** the API's names, accepted as hidden spellings of --hops and --results (not together with them) */
  maxHops?: number;
  maxResults?: number;
  trace?: boolean;
  filter?: Metadata;
  where?: Filter;
  json?: boolean;
}

/** Whitespace collapsed, wrapped to `width`, at most `maxLines` lines (the last ending in … when cut). */
function wrap(text: string, width: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  let cut = false;
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = '';
      if (lines.length === maxLines) {
        cut = true;
        break;
      }
    }
    line = line ? `${line} ${w}` : w.slice(0, width);
  }
  if (cut) lines[maxLines - 1] = `${lines[maxLines - 1].slice(0, width - 1)}…`;
  else if (line) lines.push(line);
  return lines;
}

export function renderResult(r: SearchResult, maxHops: number | undefined, width: number): string {
  const out: string[] = [];
  const hops = [...new Set(r.passages.map((p) => p.hop))].sort((a, b) => a - b);
  if (r.passages.length === 0) out.push('no passages found');
  for (const hop of hops) {
    out.push(`hop ${hop}`);
    for (const p of r.passages.filter((x) => x.hop === hop)) {
      const meta = formatMetadata(p.metadata);
      out.push(`  ${p.score.toFixed(3)}  ${p.doc_id}  [${p.start}-${p.end}]${meta ? `  ${meta}` : ''}`);
      for (const l of wrap(p.text, Math.max(20, width - 9), 4)) out.push(`         ${l}`);
    }
  }
  const ceiling = maxHops === undefined ? '' : ` of at most ${maxHops}`;
  out.push(
    '',
    `confidence ${r.confidence.toFixed(2)} · ${r.hops_used} hop${r.hops_used === 1 ? '' : 's'} used${ceiling} · ${r.latency_ms.toFixed(1)} ms · ${r.engine}`,
  );
  if (r.trace) {
    out.push('trace:');
    if (r.trace.length === 0) out.push('  (empty)');
    for (const s of r.trace) out.push(`  hop ${s.hop}  ${s.doc_id}  ${s.why}  (${s.candidates} candidates, ${s.ms.toFixed(1)} ms)`);
  }
  return `${out.join('\n')}\n`;
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Multi-hop search of a store')
    .argument('<store>', 'store name or id')
    .argument('<query>', 'natural-language query')
    .option('--hops <n>', 'ceiling on hops, 1 to 8 (server default 4)', intOption(1, 8))
    .option('--results <n>', 'maximum passages, 1 to 100 (server default 10)', intOption(1, 100))
    .option('--trace', 'show why each hop went where it did')
    .option(
      '--filter <key=value>',
      'metadata that must match (repeatable; numbers, true and false are typed, "quote" to keep a string)',
      parseFilter,
    )
    .option('--where <json>', 'a filter in the API\'s language, e.g. \'{"year": {"$gte": 2000}}\' (with --filter, both hold)', parseWhere)
    .option('--json', 'print the response JSON')
    .addOption(new Option('--max-hops <n>', "the API's name for --hops").argParser(intOption(1, 8)).conflicts('hops'))
    .addOption(new Option('--max-results <n>', "the API's name for --results").argParser(intOption(1, 100)).conflicts('results'))
    .action(
      withClient(async (store: string, query: string, opts: SearchOpts) => {
        const req: SearchRequest = { query };
        const hops = opts.hops ?? opts.maxHops;
        const results = opts.results ?? opts.maxResults;
        if (hops !== undefined) req.max_hops = hops;
        if (results !== undefined) req.max_results = results;
        if (opts.trace) req.return_trace = true;
        const filter = combineFilters(opts.filter, opts.where);
        if (filter) req.filter = filter;
        const r = await client().search(store, req);
        if (opts.json) printJson(r);
        else process.stdout.write(renderResult(r, hops, process.stdout.columns || 100));
      }),
    );
}
