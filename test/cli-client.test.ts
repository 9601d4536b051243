// The client commands of `svc` as a separate process against a real server: stores create, list,
// get, delete; docs list, get, delete, patch and filters (--where); search's readable view and
// --json; every error printed as message and fix, in the CLI's words, with a non-zero exit; the help
// of serve and search.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { renderResult } from '../src/cli/search.js';
import { SERVER_VARIABLES } from '../src/config.js';
import { assertBuilt, runCli, unusedPort } from './helpers/cli.js';
import { REPO, startTestServer } from './helpers/server.js';

assertBuilt();
const { server, api } = await startTestServer(t, { threads: 1 });
const env = { SVC_BASE_URL: server.url };
const svc = (...args: string[]) => runCli(args, env);

t.test('stores create, list, get, delete', async (t) => {
  const created = await svc('stores', 'create', 'notes');
  t.equal(created.code, 0, created.stderr);
  t.match(created.stdout, /^created store 'notes' \(st_[a-z2-7]{16}\)\n$/);
  const json = JSON.parse((await svc('stores', 'create', 'notes-2', '--json')).stdout);
  t.match(json, { name: 'notes-2', n_docs: 0 });

  const [list, get, refused] = await Promise.all([
    svc('stores', 'list'),
    svc('stores', 'get', json.id),
    svc('stores', 'delete', 'notes-2'),
  ]);
  t.match(list.stdout, /^NAME\s+ID\s+DOCS\s+SIZE\s+CREATED\nnotes-2\s+st_\w+\s+0\s+\d.*\nnotes\s+st_\w+\s+0\s+/, 'newest first');
  t.match(get.stdout, /name\s+notes-2\nid\s+st_\w+\ndocuments\s+0\n/);
  t.equal(refused.code, 1, 'delete without --yes off a terminal is refused');
  t.match(refused.stderr, /error: not deleting store 'notes-2' and its 0 documents without confirmation\nfix: Pass --yes/);

  const deleted = await svc('stores', 'delete', 'notes-2', '--yes');
  t.equal(deleted.code, 0);
  t.equal(deleted.stdout, "deleted store 'notes-2'\n");
  t.equal((await api.raw('GET', '/stores/notes-2')).status, 404);
});

t.test('docs list, get, delete', async (t) => {
  await api.post('/stores/notes/documents', {
    documents: [
      { id: 'a/b c', text: 'The river Tagus flows to Lisbon.', metadata: { team: 'geo', n: 1 } },
      ...Array.from({ length: 25 }, (_, i) => ({ id: `n${i}`, text: `Note ${i} on hills.` })),
    ],
  });
  const [list, all, three, get] = await Promise.all([
    svc('docs', 'list', 'notes'),
    svc('docs', 'list', 'notes', '--all', '--json'),
    svc('docs', 'list', 'notes', '--limit', '3', '--json'),
    svc('docs', 'get', 'notes', 'a/b c', '--text'),
  ]);
  t.match(list.stdout, /^ID\s+TOKENS\s+INGESTED\s+METADATA\n/);
  t.equal(list.stdout.trim().split('\n').length, 21, 'header and the first 20');
  t.match(list.stderr, /first 20 shown; --limit <n> or --all/);
  t.equal(JSON.parse(all.stdout).length, 26);
  t.equal(JSON.parse(three.stdout).length, 3);
  t.equal(get.code, 0, get.stderr);
  t.match(
    get.stdout,
    /id\s+a\/b c\ntokens\s+\d+\ningested\s+\S+\nupdated\s+\S+\nmetadata\s+team=geo n=1\n\nThe river Tagus flows to Lisbon.\n/,
  );

  t.equal((await svc('docs', 'delete', 'notes', 'a/b c')).stdout, "deleted document 'a/b c' from 'notes'\n");
  const again = await svc('docs', 'get', 'notes', 'a/b c');
  t.equal(again.code, 1);
  t.match(again.stderr, /^error: no document with id 'a\/b c' in store 'notes' \(request id req_\w+\)\nfix: List documents/);
});

t.test('filters (--where), delete by filter and patch', async (t) => {
  await api.post('/stores', { name: 'kv' });
  await api.post('/stores/kv/documents', {
    documents: Array.from({ length: 6 }, (_, i) => ({
      id: `k${i}`,
      text: `Ledger ${i} of the salt trade.`,
      metadata: { year: 2000 + i, team: i % 2 ? 'a' : 'b' },
    })),
  });
  const listed = await svc('docs', 'list', 'kv', '--where', '{"year": {"$gte": 2003}}', '--json');
  t.equal(listed.code, 0, listed.stderr);
  t.same(
    JSON.parse(listed.stdout).map((d: { id: string }) => d.id),
    ['k5', 'k4', 'k3'],
  );
  const none = await svc('docs', 'list', 'kv', '--where', '{"year": 1}');
  t.equal(none.stdout, "no document in 'kv' matches the filter\n");
  const found = await svc('search', 'kv', 'salt trade ledger', '--json', '--filter', 'team=a', '--where', '{"year": {"$lt": 2005}}');
  t.same(
    [...new Set(JSON.parse(found.stdout).passages.map((p: { doc_id: string }) => p.doc_id))].sort(),
    ['k1', 'k3'],
    '--filter and --where both hold',
  );
  const badJson = await svc('search', 'kv', 'salt', '--where', '{year: 1}');
  t.not(badJson.code, 0);
  t.match(badJson.stderr, /--where <json>.*not JSON/);
  const badOp = await svc('search', 'kv', 'salt', '--where', '{"year": {"$near": 1}}');
  t.equal(badOp.code, 1);
  t.match(badOp.stderr, /^error: .*unknown field '\$near'.*\nfix: Allowed fields: \$eq/);

  const patched = await svc('docs', 'patch', 'kv', 'k0', '--set', 'team=c', '--set', 'checked=true', '--unset', 'year');
  t.equal(patched.code, 0, patched.stderr);
  t.equal(patched.stdout, "updated 'k0' in 'kv': team=c checked=true\n");
  t.same((await api.get('/stores/kv/documents/k0')).metadata, { team: 'c', checked: true });
  const nothing = await svc('docs', 'patch', 'kv', 'k0');
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /error: nothing to change\nfix: svc docs patch kv k0 --set/);

  const deleted = await svc('docs', 'delete', 'kv', '--where', '{"team": "a"}');
  t.equal(deleted.stdout, "deleted 3 documents from 'kv'\n");
  t.equal((await api.get('/stores/kv')).n_docs, 3);
  const both = await svc('docs', 'delete', 'kv', 'k0', '--where', '{"team": "b"}');
  t.equal(both.code, 1);
  t.match(both.stderr, /give a document id or --where/);
  const emptyFilter = await svc('docs', 'delete', 'kv', '--where', '{}');
  t.equal(emptyFilter.code, 1);
  t.match(emptyFilter.stderr, /fix: A filter with at least one condition/);
  t.equal((await api.get('/stores/kv')).n_docs, 3, 'refused deletes deleted nothing');
});

t.test('search: passages by hop with scores, confidence, hops, latency and trace', async (t) => {
  await api.post('/stores', { name: 'films' });
  await api.post('/stores/films/documents', {
    documents: [
      {
        id: 'devotion',
        text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film directed by Guido Brignone.',
        metadata: { source: 'wiki' },
      },
      {
        id: 'brignone',
        text: 'Guido Brignone\nGuido Brignone was an Italian director, father of the actress Lilla Brignone.',
        metadata: { source: 'wiki' },
      },
      { id: 'other', text: 'Lisbon is the capital of Portugal.', metadata: { source: 'atlas' } },
    ],
  });
  const q = 'Who is the child of the director of Devotion (1929 film)?';
  const [r, asJson, bad, apiNames, badApiName, bothHops, bothResults] = await Promise.all([
    svc('search', 'films', q, '--hops', '3', '--results', '5', '--trace', '--filter', 'source=wiki'),
    svc('search', 'films', q, '--json', '--filter', 'source=wiki'),
    svc('search', 'films', q, '--hops', '9'),
    svc('search', 'films', q, '--max-hops', '1', '--max-results', '1', '--json'),
    svc('search', 'films', q, '--max-results', '0'),
    svc('search', 'films', q, '--hops', '2', '--max-hops', '1'),
    svc('search', 'films', q, '--max-results', '3', '--results', '3'),
  ]);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^hop 1\n {2}\d+\.\d{3} {2}\S+/);
  t.match(r.stdout, /\nconfidence \d\.\d\d · \d hops? used of at most 3 · \d+\.\d ms · \S+/);
  t.match(r.stdout, /\ntrace:\n {2}hop 1 {2}\S+ {2}.+/);
  t.notMatch(r.stdout, /Lisbon/, 'the filter applies');

  const json = JSON.parse(asJson.stdout);
  t.type(json.confidence, 'number');
  t.ok(json.passages.every((p: { metadata: { source: string } }) => p.metadata.source === 'wiki'));
  t.notOk('trace' in json, 'no trace unless asked');

  t.not(bad.code, 0);
  t.match(bad.stderr, /--hops <n>.*use an integer from 1 to 8/);

  t.equal(apiNames.code, 0, apiNames.stderr);
  const one = JSON.parse(apiNames.stdout);
  t.equal(one.passages.length, 1, "--max-results, the API's name, is --results");
  t.equal(one.hops_used, 1, '--max-hops is --hops');
  t.not(badApiName.code, 0);
  t.match(badApiName.stderr, /--max-results <n>.*use an integer from 1 to 100/);
  t.not(bothHops.code, 0, 'both spellings of one option are refused, not one silently taken');
  t.match(bothHops.stderr, /option '--max-hops <n>' cannot be used with option '--hops <n>'/);
  t.equal(bothHops.stdout, '');
  t.not(bothResults.code, 0);
  t.match(bothResults.stderr, /option '--max-results <n>' cannot be used with option '--results <n>'/);
});

t.test('the readable view groups passages by hop', async (t) => {
  const text = renderResult(
    {
      passages: [
        { doc_id: 'b', text: 'second '.repeat(200), score: 0.5, hop: 2, metadata: {}, start: 0, end: 1400, highlights: [] },
        { doc_id: 'a', text: 'first', score: 0.9, hop: 1, metadata: { team: 'x' }, start: 3, end: 8, highlights: [[0, 5]] },
      ],
      confidence: 0.875,
      hops_used: 2,
      latency_ms: 3.25,
      engine: 'e1',
      trace: [{ hop: 1, doc_id: 'a', why: 'matches', query: 'q', ms: 0.25, candidates: 40 }],
    },
    4,
    60,
  );
  t.match(text, /^hop 1\n {2}0\.900 {2}a {2}\[3-8\] {2}team=x\n {9}first\nhop 2\n {2}0\.500 {2}b/);
  t.equal(text.split('\n').filter((l) => l.includes('second')).length, 4, 'long passages wrapped to four lines');
  t.match(text, /…\n/);
  t.match(
    text,
    /confidence 0\.88 · 2 hops used of at most 4 · 3\.3 ms · e1\ntrace:\n {2}hop 1 {2}a {2}matches {2}\(40 candidates, 0\.3 ms\)\n$/,
  );
});

t.test('errors print message and fix and exit non-zero', async (t) => {
  const authed = await startTestServer(t, { noAuth: false, threads: 1 });
  const port = await unusedPort();
  const [missing, invalid, down, wrong, denied] = await Promise.all([
    svc('stores', 'get', 'nope'),
    svc('stores', 'create', 'Bad Name'),
    runCli(['stores', 'list'], { SVC_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    runCli(['stores', 'list'], { SVC_BASE_URL: 'http://127.0.0.1:8080' }),
    runCli(['stores', 'list'], { SVC_BASE_URL: authed.server.url, SVC_API_KEY: 'svc_not_a_real_key' }),
  ]);
  for (const r of [missing, invalid, down, wrong, denied]) t.equal(r.code, 1, r.stderr);
  t.match(missing.stderr, /^error: no store named or with id 'nope'.*\nfix: .*svc stores create/);
  t.match(
    invalid.stderr,
    /^error: the store name must be 1 to 64 characters of a-z, 0-9, '-' and '_'.*\nfix: .*\[a-z0-9-_\]/,
    'CLI words, not API paths',
  );
  t.match(
    down.stderr,
    new RegExp(
      `^error: GET http://127\\.0\\.0\\.1:${port}/v1/stores failed: ECONNREFUSED\\nfix: Nothing answers at http://127\\.0\\.0\\.1:${port}/v1: start the server \\(svc serve\\), or set SVC_BASE_URL`,
    ),
  );
  t.match(wrong.stderr, /^error: base URL 'http:\/\/127\.0\.0\.1:8080' does not end in \/v1\nfix: Set SVC_BASE_URL/);
  t.match(denied.stderr, /^error: the API key is not valid.*\nfix: Set SVC_API_KEY .*svc keys create/);
  const empty = await svc('search', 'nope', '');
  t.match(empty.stderr, /^error: the query must not be empty/);
  const hops = await svc('search', 'nope', 'q', '--max-hops', '9');
  t.match(hops.stderr, /integer from 1 to 8/);
});

t.test('help: serve lists the SVC_ variables with their defaults, search every option the README names', async (t) => {
  const serve = await svc('serve', '--help');
  for (const v of SERVER_VARIABLES)
    t.match(serve.stdout, new RegExp(`\\b${v.name}\\b.*\\(default: ${v.default.replace(/[$.*?()[\]\\/]/g, '\\$&')}\\)`), v.name);
  const config = fs.readFileSync(path.join(REPO, 'docs', 'configuration.md'), 'utf8');
  for (const v of SERVER_VARIABLES) t.match(config, `| \`${v.name}\` |`, `${v.name} is in docs/configuration.md`);
  const search = await svc('search', '--help');
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.startsWith('- `svc search <store>'))!;
  const named = [...new Set([...line.matchAll(/--[a-z-]+/g), ...readme.matchAll(/`(--max-[a-z]+)`/g)].map((m) => m[1] ?? m[0]))];
  t.ok(named.length >= 7, named.join(' '));
  for (const option of named) t.match(search.stdout, option, `svc search --help shows ${option}`);
});
