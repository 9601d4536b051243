// `npm run bench -- mcp [--queries 100]`: what reaching svc through its MCP endpoint costs an agent.
// A real server in-process with the wiki-pool (hotpotqa-dev's corpus); each question is searched
// over REST (POST /search with return_trace, as the MCP tool asks) and through /v1/mcp (the SDK's
// client over streamable HTTP, one connection reused as an agent's would be), alternating which
// goes first; the first 10 of each are untimed. Prints the round-trip p50 and p99 of each and
// their ratio, and whether both returned the same passages.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fmt, log, machineLine, percentile, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { SvcSystem } from './peer-svc.js';

const { values: opt } = parseArgs({ args: process.argv.slice(2), options: { queries: { type: 'string', default: '100' } } });
const WARMUP = 10;
const queries = suiteQueries('hotpotqa-dev', Number(opt.queries) + WARMUP);
const started = new Date();
const svc = await SvcSystem.start();
await svc.ingest(suiteCorpus('hotpotqa-dev'));
await svc.settle();
log(`mcp bench: ${svc.stats().passages} passages`);
const client = new Client({ name: 'svc-bench', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));

const rest: number[] = [];
const mcp: number[] = [];
let same = 0;
const ids = (ps: Array<{ doc_id: string }>) => ps.map((p) => p.doc_id).join(' ');
for (let i = 0; i < queries.length; i++) {
  const query = queries[i].query;
  const viaRest = async () => {
    const t = performance.now();
    const r = await svc.call('POST', '/stores/bench/search', { query, return_trace: true });
    return { ms: performance.now() - t, ids: ids(r.passages) };
  };
  const viaMcp = async () => {
    const t = performance.now();
    const r = await client.callTool({ name: 'search', arguments: { store: 'bench', query } });
    return { ms: performance.now() - t, ids: ids((r.structuredContent as { passages: Array<{ doc_id: string }> }).passages) };
  };
  const first = i % 2 ? await viaMcp() : await viaRest();
  const second = i % 2 ? await viaRest() : await viaMcp();
  const [m, r] = i % 2 ? [first, second] : [second, first];
  if (i < WARMUP) continue;
  mcp.push(m.ms);
  rest.push(r.ms);
  same += +(m.ids === r.ids);
}
await client.close();
await svc.close();
const n = rest.length;
process.stdout.write(
  `\nCommand: \`npm run bench -- mcp --queries ${opt.queries}\` at ${started.toISOString()}, ${n} hotpotqa-dev questions, wiki-pool.\n${machineLine()}\n\n`,
);
process.stdout.write(
  table(
    ['path', 'round trip p50 ms', 'p99 ms', 'p50 / REST'],
    [
      ['REST POST /v1/stores/{store}/search', fmt(percentile(rest, 50), 1), fmt(percentile(rest, 99), 1), '1.00x'],
      [
        'MCP tools/call search at /v1/mcp',
        fmt(percentile(mcp, 50), 1),
        fmt(percentile(mcp, 99), 1),
        `${fmt(percentile(mcp, 50) / percentile(rest, 50), 2)}x`,
      ],
    ],
  ),
);
process.stdout.write(`\nSame passages both ways: ${same} of ${n}.\n`);
