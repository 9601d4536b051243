// The MCP server with the SDK's own client, over both transports: streamable HTTP at /v1/mcp of a
// real server (auth, project scoping, rate limit, writes off unless SVC_MCP_WRITES=1) and stdio
// through `svc mcp` as a separate process (writes off unless --allow-writes). Every tool is called;
// API errors come back as tool errors carrying the API's type and fix.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import t, { type Test } from 'tap';
import { KeyRing } from '../src/store/keys.js';
import { assertBuilt, BIN, cliEnv } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

const DOCS = [
  {
    id: 'curie',
    text: 'Marie Curie\nMarie Curie was a physicist born in Warsaw. She won the Nobel Prize twice.',
    metadata: { kind: 'person' },
  },
  { id: 'warsaw', text: 'Warsaw\nWarsaw is the capital of Poland, on the Vistula river.', metadata: { kind: 'city' } },
  { id: 'paris', text: 'Paris\nParis is the capital of France, on the Seine.', metadata: { kind: 'city' } },
];

async function httpClient(t: Test, url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  t.teardown(() => client.close());
  return client;
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const toolNames = async (c: Client) => (await c.listTools()).tools.map((x) => x.name).sort();

const authed = await startTestServer(t, { noAuth: false });
const keyA = new KeyRing(authed.dataDir).create('proj-a').key;
const keyB = new KeyRing(authed.dataDir).create('proj-b').key;
const A = authed.api.with({ authorization: `Bearer ${keyA}` });
await A.post('/stores', { name: 'wiki' });
await A.post('/stores/wiki/documents', { documents: DOCS });

t.test('over HTTP: the reading tools, described for an agent', async (t) => {
  const c = await httpClient(t, authed.server.url, keyA);
  const { tools } = await c.listTools();
  t.same(tools.map((x) => x.name).sort(), ['get_document', 'list_documents', 'list_stores', 'search'], 'no writing tool by default');
  const search = tools.find((x) => x.name === 'search')!;
  t.match(search.description, /`confidence`.*probability/);
  t.match(search.description, /`hops_used`/);
  t.ok(search.outputSchema, 'search declares its structured output');
  t.equal(search.annotations?.readOnlyHint, true);
  t.same(Object.keys(search.inputSchema.properties ?? {}).sort(), ['answer', 'filter', 'max_hops', 'max_results', 'query', 'store']);
});

t.test('over HTTP: search returns passages, confidence, hops and the trace, as data and as text', async (t) => {
  const c = await httpClient(t, authed.server.url, keyA);
  const r = (await c.callTool({
    name: 'search',
    arguments: { store: 'wiki', query: 'Which river flows through the city where Marie Curie was born?' },
  })) as CallToolResult;
  t.notOk(r.isError);
  const s = r.structuredContent as any;
  const rest = await A.post('/stores/wiki/search', {
    query: 'Which river flows through the city where Marie Curie was born?',
    return_trace: true,
  });
  t.same(
    s.passages.map((p: any) => [p.doc_id, p.hop, p.start, p.end]),
    rest.passages.map((p: any) => [p.doc_id, p.hop, p.start, p.end]),
    'the passages the REST search returns, with hops and offsets',
  );
  t.equal(s.confidence, rest.confidence);
  t.equal(s.hops_used, rest.hops_used);
  t.ok(s.trace.length >= 1, 'the trace');
  t.ok(
    s.passages.some((p: any) => p.doc_id === 'warsaw'),
    'the bridge document is found',
  );
  t.match(text(r), /^confidence \d\.\d\d, hops used \d, \d+ passages?: /);
  t.match(text(r), /\[1\] document "[a-z]+", hop \d, characters \d+-\d+/);
  t.match(text(r), /How the search went:\nhop 1: read/);
  const filtered = (await c.callTool({
    name: 'search',
    arguments: { store: 'wiki', query: 'capital', filter: { kind: 'city' }, max_results: 1 },
  })) as CallToolResult;
  const fp = (filtered.structuredContent as any).passages;
  t.equal(fp.length, 1, 'max_results');
  t.equal(fp[0].metadata.kind, 'city', 'filter');
});

t.test('over HTTP: search with answer: the answer the REST search gives, as data and as text', async (t) => {
  const c = await httpClient(t, authed.server.url, keyA);
  const query = 'Where was Marie Curie born?';
  const r = (await c.callTool({ name: 'search', arguments: { store: 'wiki', query, answer: true } })) as CallToolResult;
  t.notOk(r.isError);
  const rest = await A.post('/stores/wiki/search', { query, answer: true });
  t.same((r.structuredContent as any).answer, rest.answer);
  t.equal(rest.answer.source, 'native');
  t.ok(rest.answer.text, `an answer (${rest.answer.text})`);
  t.match(text(r), new RegExp(`\n\nAnswer \\(native\\): ${rest.answer.text}\n\n`));
  const without = (await c.callTool({ name: 'search', arguments: { store: 'wiki', query } })) as CallToolResult;
  t.notOk('answer' in (without.structuredContent as any), 'none unless asked');
});

t.test('over HTTP: get_document, list_stores, list_documents', async (t) => {
  const c = await httpClient(t, authed.server.url, keyA);
  const doc = (await c.callTool({ name: 'get_document', arguments: { store: 'wiki', id: 'warsaw' } })) as CallToolResult;
  t.equal((doc.structuredContent as any).text, DOCS[1].text, 'the whole text');
  t.match(text(doc), /^document "warsaw", \d+ tokens/);
  const stores = (await c.callTool({ name: 'list_stores', arguments: {} })) as CallToolResult;
  t.same(
    (stores.structuredContent as any).stores.map((s: any) => s.name),
    ['wiki'],
  );
  t.match(text(stores), /^wiki \(st_[^)]+\): 3 documents/);
  const page = (await c.callTool({ name: 'list_documents', arguments: { store: 'wiki', limit: 1 } })) as CallToolResult;
  t.equal((page.structuredContent as any).documents.length, 1);
  t.match(text(page), /More: call list_documents with cursor "/);
  const next = (await c.callTool({
    name: 'list_documents',
    arguments: { store: 'wiki', limit: 5, cursor: (page.structuredContent as any).next_cursor },
  })) as CallToolResult;
  t.equal((next.structuredContent as any).documents.length, 2, 'the cursor pages on');
  const cities = (await c.callTool({ name: 'list_documents', arguments: { store: 'wiki', filter: { kind: 'city' } } })) as CallToolResult;
  t.same((cities.structuredContent as any).documents.map((d: any) => d.id).sort(), ['paris', 'warsaw']);
});

t.test("over HTTP: the API's errors are tool errors with their type and fix", async (t) => {
  const c = await httpClient(t, authed.server.url, keyA);
  const missing = (await c.callTool({ name: 'search', arguments: { store: 'nope', query: 'x' } })) as CallToolResult;
  t.equal(missing.isError, true);
  t.match(text(missing), /^svc error store_not_found: .*\nFix: /);
  t.equal((missing.structuredContent as any).error.type, 'store_not_found');
  const bounds = (await c.callTool({ name: 'search', arguments: { store: 'wiki', query: 'x', max_hops: 99 } })) as CallToolResult;
  t.equal(bounds.isError, true);
  t.match(text(bounds), /^svc error invalid_request: .*max_hops.*\nFix: /s);
  const doc = (await c.callTool({ name: 'get_document', arguments: { store: 'wiki', id: 'nobody' } })) as CallToolResult;
  t.match(text(doc), /^svc error document_not_found/);
  const badFilter = (await c.callTool({ name: 'list_documents', arguments: { store: 'wiki', filter: { $bad: 1 } } })) as CallToolResult;
  t.match(text(badFilter), /^svc error invalid_request: .*\nFix: /s);
  const wrongType = (await c.callTool({ name: 'search', arguments: { store: 'wiki', query: 42 } })) as CallToolResult;
  t.equal(wrongType.isError, true, 'an argument of the wrong type');
  const write = (await c.callTool({
    name: 'ingest_documents',
    arguments: { store: 'wiki', documents: [{ id: 'x', text: 'x' }] },
  })) as CallToolResult;
  t.equal(write.isError, true, 'a writing tool is refused when writes are off');
  t.equal((await A.get('/stores/wiki')).n_docs, 3, 'and nothing was written');
});

t.test('over HTTP: the bearer key and its project', async (t) => {
  const refused = new Client({ name: 'svc-test', version: '1.0.0' });
  const err = await refused.connect(new StreamableHTTPClientTransport(new URL(`${authed.server.url}/mcp`))).then(
    () => undefined,
    (e: Error) => e,
  );
  t.match(err?.message, /401|unauthorized/i, 'no key: refused');
  const badKey = new Client({ name: 'svc-test', version: '1.0.0' });
  const err2 = await badKey
    .connect(
      new StreamableHTTPClientTransport(new URL(`${authed.server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer svc_aaaaaaaa_${'a'.repeat(40)}` } },
      }),
    )
    .then(
      () => undefined,
      (e: Error) => e,
    );
  t.match(err2?.message, /401|unauthorized/i, 'an unknown key: refused');
  const raw = await authed.api.raw(
    'POST',
    '/mcp',
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { accept: 'application/json, text/event-stream' },
  );
  t.equal(raw.status, 401);
  t.equal(raw.body.error.type, 'unauthorized');
  const b = await httpClient(t, authed.server.url, keyB);
  const stores = (await b.callTool({ name: 'list_stores', arguments: {} })) as CallToolResult;
  t.same((stores.structuredContent as any).stores, [], "project B sees none of A's stores");
  const search = (await b.callTool({ name: 'search', arguments: { store: 'wiki', query: 'Curie' } })) as CallToolResult;
  t.match(text(search), /^svc error store_not_found/);
  const get = await authed.api.raw('GET', '/mcp', undefined, { authorization: `Bearer ${keyA}` });
  t.equal(get.status, 405, 'no event stream: there are no sessions');
  t.equal(get.headers.get('allow'), 'POST');
  t.equal(get.body.error.type, 'method_not_allowed');
});

t.test('over HTTP: every MCP request counts against the rate limit', async (t) => {
  const limited = await startTestServer(t, { rateLimit: 3 });
  await limited.api.post('/stores', { name: 's' });
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await limited.api.raw(
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: i, method: 'tools/list' },
      { accept: 'application/json, text/event-stream' },
    );
    statuses.push(r.status);
  }
  t.ok(statuses.includes(200), 'served while under the limit');
  t.ok(statuses.includes(429), `refused past it (${statuses.join(' ')})`);
});

t.test('over HTTP with SVC_MCP_WRITES=1: ingest_documents and delete_document', async (t) => {
  const writable = await startTestServer(t, { env: { SVC_MCP_WRITES: '1' } });
  await writable.api.post('/stores', { name: 'notes' });
  const c = await httpClient(t, writable.server.url);
  t.same(await toolNames(c), ['delete_document', 'get_document', 'ingest_documents', 'list_documents', 'list_stores', 'search']);
  const ingest = (await c.callTool({
    name: 'ingest_documents',
    arguments: { store: 'notes', documents: [{ id: 'n1', text: 'The meeting moved to Thursday.', metadata: { team: 'a' } }] },
  })) as CallToolResult;
  t.notOk(ingest.isError);
  t.match(text(ingest), /^Ingested 1 document: "n1"/);
  t.same((await writable.api.get('/stores/notes/documents/n1')).metadata, { team: 'a' }, 'written, and durable as any ingest');
  const found = (await c.callTool({ name: 'search', arguments: { store: 'notes', query: 'When is the meeting?' } })) as CallToolResult;
  t.equal((found.structuredContent as any).passages[0].doc_id, 'n1', 'searchable when the call returns');
  const del = (await c.callTool({ name: 'delete_document', arguments: { store: 'notes', id: 'n1' } })) as CallToolResult;
  t.notOk(del.isError);
  t.equal((await writable.api.get('/stores/notes')).n_docs, 0);
  const again = (await c.callTool({ name: 'delete_document', arguments: { store: 'notes', id: 'n1' } })) as CallToolResult;
  t.match(text(again), /^svc error document_not_found/);
});

t.test('SVC_MCP_WRITES takes 0 or 1 only', async (t) => {
  await t.rejects(startTestServer(t, { env: { SVC_MCP_WRITES: 'yes' } }), /SVC_MCP_WRITES=yes is not 0 or 1/);
});

t.test('over stdio: svc mcp against a server, through SVC_BASE_URL and SVC_API_KEY', async (t) => {
  assertBuilt();
  const connect = async (args: string[]) => {
    const client = new Client({ name: 'svc-test', version: '1.0.0' });
    const env = cliEnv({ SVC_BASE_URL: authed.server.url, SVC_API_KEY: keyA }) as Record<string, string>;
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env, cwd: path.dirname(BIN), stderr: 'pipe' }),
    );
    t.teardown(() => client.close());
    return client;
  };
  const c = await connect([]);
  t.same(await toolNames(c), ['get_document', 'list_documents', 'list_stores', 'search'], 'writes off by default');
  const r = (await c.callTool({ name: 'search', arguments: { store: 'wiki', query: 'Where was Marie Curie born?' } })) as CallToolResult;
  t.notOk(r.isError);
  t.ok((r.structuredContent as any).passages.some((p: any) => p.doc_id === 'curie'));
  t.match(text(r), /^confidence /);
  const doc = (await c.callTool({ name: 'get_document', arguments: { store: 'wiki', id: 'paris' } })) as CallToolResult;
  t.equal((doc.structuredContent as any).text, DOCS[2].text);
  const err = (await c.callTool({ name: 'list_documents', arguments: { store: 'nope' } })) as CallToolResult;
  t.match(text(err), /^svc error store_not_found: .*\nFix: /s);
  const w = await connect(['--allow-writes']);
  t.same(await toolNames(w), ['delete_document', 'get_document', 'ingest_documents', 'list_documents', 'list_stores', 'search']);
  const ing = (await w.callTool({
    name: 'ingest_documents',
    arguments: { store: 'wiki', documents: [{ id: 'rome', text: 'Rome\nRome is the capital of Italy.' }] },
  })) as CallToolResult;
  t.notOk(ing.isError);
  t.equal((await A.get('/stores/wiki')).n_docs, 4);
  const del = (await w.callTool({ name: 'delete_document', arguments: { store: 'wiki', id: 'rome' } })) as CallToolResult;
  t.notOk(del.isError);
  t.equal((await A.get('/stores/wiki')).n_docs, 3);
});
