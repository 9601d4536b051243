// `svc ingest` as a separate process against a real server (behind the fault proxy where a test
// needs to watch or hold requests): folders and JSONL files, the store created when missing, plain
// progress lines off a terminal, the summary, re-runs answered by replay, Ctrl-C stopping cleanly
// and a re-run resuming without applying any batch twice; the progress bar drawn for a terminal.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { autoBatchSize } from '../src/cli/ingest.js';
import { Progress } from '../src/cli/progress.js';
import { assertBuilt, runCli, spawnCli } from './helpers/cli.js';
import { type Fault, FaultProxy, PASS } from './helpers/fault-proxy.js';
import { startTestServer, tempDir } from './helpers/server.js';

assertBuilt();
const { server, api } = await startTestServer(t, { threads: 1 });
const proxy = await FaultProxy.start(t, server.url);
const dir = tempDir(t, 'svc-cli-ingest-');
const isIngest = (e: { method: string; path: string }) => e.method === 'POST' && e.path.endsWith('/documents');

async function docsOf(store: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page: { documents: Array<{ id: string; ingested_at: string }>; next_cursor: string | null } = await api.get(
      `/stores/${store}/documents?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const d of page.documents) out.set(d.id, d.ingested_at);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

function writeJsonl(file: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `j${i}`, text: `Line ${i} is about rivers and hills.`, metadata: { n: i } }),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

t.beforeEach(() => proxy.reset());

t.test('a folder of .txt/.md files, with plain progress lines off a terminal', async (t) => {
  const folder = path.join(dir, 'notes');
  fs.mkdirSync(path.join(folder, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'a.txt'), 'Alpha: the Tagus flows to Lisbon.\n');
  fs.writeFileSync(path.join(folder, 'sub', 'b.md'), '# Beta\nHills rise over the valley.\n');
  fs.writeFileSync(path.join(folder, 'c.TXT'), 'Gamma: upper-case extension.');
  fs.writeFileSync(path.join(folder, 'empty.txt'), '  \n\n');
  fs.writeFileSync(path.join(folder, '.hidden.txt'), 'not ingested');
  fs.writeFileSync(path.join(folder, 'image.png'), 'not ingested');
  proxy.rule = (req) => (isIngest(req) ? new Promise<Fault>((r) => setTimeout(() => r(PASS), 150)) : PASS);
  const run = await runCli(['ingest', 'notes', folder, '--batch-size', '1', '--concurrency', '1', '--progress-interval', '0.05'], {
    SVC_BASE_URL: proxy.url,
  });
  t.equal(run.code, 0, run.stderr);
  t.match(
    run.stdout,
    /^ingested 3 documents into 'notes' in \d+\.\d s \(\d+ docs\/s, 3 batches\)\n {2}skipped 1 empty file: empty\.txt\n$/,
  );
  t.match(run.stderr, /^ingesting folder .* \(4 files\) into 'notes' \(st_\w+\)\n/);
  t.match(run.stderr, /^ingest: \d\/4 documents \(\d+%\), \d+ docs\/s/m, 'periodic plain lines');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for terminal escape codes (ESC [) on purpose
  t.notMatch(run.stderr, /\r|\x1b\[/, 'no terminal control characters');
  const docs = await docsOf('notes');
  t.same([...docs.keys()].sort(), ['a.txt', 'c.TXT', 'sub/b.md'], 'ids are paths relative to the folder');
  t.same((await api.get('/stores/notes/documents/sub%2Fb%2Emd?include_text=true')).metadata, { path: 'sub/b.md' });
});

t.test('a JSONL file; a re-run replays, --fresh writes again', async (t) => {
  const file = path.join(dir, 'data.jsonl');
  fs.writeFileSync(
    file,
    [
      JSON.stringify({ id: 'x1', text: 'First line.', metadata: { team: 'a' } }),
      '',
      JSON.stringify({ text: 'A line without an id.' }),
      '',
    ].join('\n'),
  );
  const first = await runCli(['ingest', 'lines', file], { SVC_BASE_URL: server.url });
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /^ingested 2 documents into 'lines'/);
  const before = await docsOf('lines');
  t.ok(before.has('x1') && [...before.keys()].some((id) => /^sha256-[0-9a-f]{32}$/.test(id)), `ids: ${[...before.keys()]}`);

  const again = await runCli(['ingest', 'lines', file, '--json'], { SVC_BASE_URL: server.url });
  t.match(JSON.parse(again.stdout), { store: 'lines', documents: 2, replayedDocuments: 2, stopped: false });
  t.same(await docsOf('lines'), before, 'nothing written again');

  const fresh = await runCli(['ingest', 'lines', file, '--fresh'], { SVC_BASE_URL: server.url });
  t.notMatch(fresh.stdout, /already ingested/);
  t.not((await docsOf('lines')).get('x1'), before.get('x1'), '--fresh ingests again');
});

t.test('by default a run is cut into about a hundred batches, so progress moves by about 1%', async (t) => {
  t.same([1, 50, 2000, 30_000, 1_000_000].map(autoBatchSize), [20, 20, 20, 300, 1000]);
  const file = path.join(dir, 'many.jsonl');
  writeJsonl(file, 2000);
  const run = await runCli(['ingest', 'many', file, '--json'], { SVC_BASE_URL: server.url });
  t.equal(run.code, 0, run.stderr);
  t.match(JSON.parse(run.stdout), { documents: 2000, batches: 100 }, 'a 2,000-document input: 100 acknowledgements, not 2');
  const again = await runCli(['ingest', 'many', file, '--json'], { SVC_BASE_URL: server.url });
  t.match(JSON.parse(again.stdout), { replayedDocuments: 2000 }, 'the same input cuts the same batches: a re-run replays them all');
});

t.test('bad input: message and fix, non-zero exit', async (t) => {
  const file = path.join(dir, 'bad.jsonl');
  fs.writeFileSync(file, `${JSON.stringify({ id: 'ok', text: 'Fine.' })}\n{"id": "broken", \n`);
  const huge = path.join(dir, 'huge');
  fs.mkdirSync(huge);
  fs.writeFileSync(path.join(huge, 'big.txt'), 'a'.repeat(33 * 1024 * 1024));
  fs.writeFileSync(path.join(dir, 'table.csv'), 'id,text\n');
  const [bad, big, none, odd] = await Promise.all([
    runCli(['ingest', 'bad', file], { SVC_BASE_URL: server.url }),
    runCli(['ingest', 'huge', huge], { SVC_BASE_URL: server.url }),
    runCli(['ingest', 'none', path.join(dir, 'missing')], { SVC_BASE_URL: server.url }),
    runCli(['ingest', 'none', path.join(dir, 'table.csv')], { SVC_BASE_URL: server.url }),
  ]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /error: .*bad\.jsonl:2: not valid JSON .*\nfix: Each line must be one JSON object/);
  t.equal(big.code, 1);
  t.match(
    big.stderr,
    /error: document 'big\.txt' \(#1 of the input\) is 33\.0 MB as JSON, over the 32\.0 MB per-request limit.*\nfix: .*split 'big\.txt'/,
  );
  t.equal((await api.get('/stores/huge')).n_docs, 0, 'nothing of it was sent');
  t.match(none.stderr, /error: no such file or folder: .*missing\nfix: Give a \.jsonl file, or a folder/);
  t.match(odd.stderr, /error: '.*table\.csv' is not a \.jsonl, \.txt or \.md file\nfix: /);
});

t.test('Ctrl-C stops cleanly; a re-run resumes without applying a batch twice', async (t) => {
  const file = path.join(dir, 'resume.jsonl');
  writeJsonl(file, 80);
  let arrived = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  proxy.rule = (req) => {
    if (!isIngest(req)) return PASS;
    arrived++;
    return arrived <= 2 ? PASS : released.then(() => PASS);
  };
  const args = ['ingest', 'resume', file, '--batch-size', '10', '--concurrency', '2'];
  const cli = spawnCli(args, { SVC_BASE_URL: proxy.url });
  while (arrived < 4) await new Promise((r) => setTimeout(r, 10));
  cli.child.kill('SIGINT');
  await cli.waitForStderr(/stopping: letting the batches in flight finish/);
  release();
  const first = await cli.done;
  t.equal(first.code, 130, 'exit 130 after an interrupt');
  t.match(
    first.stdout,
    /^interrupted: 40 of 80 documents ingested into 'resume' \(4 batches\) in \d+s; run the same command again to resume\n$/,
  );
  const run1 = proxy.log.filter(isIngest);
  t.equal(run1.length, 4, 'no batch started after Ctrl-C');
  const afterStop = await docsOf('resume');
  t.equal(afterStop.size, 40, 'the batches in flight finished; the next one was not sent');

  proxy.reset();
  const second = await runCli(args, { SVC_BASE_URL: proxy.url });
  t.equal(second.code, 0, second.stderr);
  t.match(
    second.stdout,
    /^ingested 80 documents into 'resume' .*\n {2}40 of them were already ingested by an earlier run and not written again/,
  );
  const run2 = proxy.log.filter(isIngest);
  t.same(
    run2
      .filter((e) => e.replayed)
      .map((e) => e.key)
      .sort(),
    run1.map((e) => e.key).sort(),
    'exactly the batches of the first run were replayed',
  );
  t.equal(run2.filter((e) => !e.replayed).length, 4, 'the other four were written');
  const done = await docsOf('resume');
  t.equal(done.size, 80);
  t.ok(
    [...afterStop].every(([id, at]) => done.get(id) === at),
    'documents of the first run were not written again',
  );
});

t.test('a second Ctrl-C aborts the batches in flight; the re-run still applies each batch once', async (t) => {
  const file = path.join(dir, 'abort.jsonl');
  writeJsonl(file, 30);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  proxy.rule = (req) => {
    if (isIngest(req)) {
      held++;
      return released.then(() => PASS);
    }
    return PASS;
  };
  const args = ['ingest', 'aborted', file, '--batch-size', '10', '--concurrency', '1'];
  const cli = spawnCli(args, { SVC_BASE_URL: proxy.url });
  while (held < 1) await new Promise((r) => setTimeout(r, 10));
  cli.child.kill('SIGINT');
  await cli.waitForStderr(/stopping/);
  cli.child.kill('SIGINT');
  const r = await cli.done;
  t.equal(r.code, 130);
  t.match(
    r.stderr,
    /aborted: 0 documents confirmed; batches in flight were applied whole or not at all; run the same command again to resume/,
  );
  release(); // the held batch now reaches the server although its client is gone
  while (proxy.log.filter(isIngest)[0]?.upstream === undefined) await new Promise((r) => setTimeout(r, 10));
  proxy.reset();
  const again = await runCli(args, { SVC_BASE_URL: proxy.url });
  t.equal(again.code, 0, again.stderr);
  t.same(
    proxy.log.filter(isIngest).map((e) => e.replayed),
    [true, false, false],
    'the batch applied after the abort was replayed, not applied again',
  );
  t.equal((await api.get('/stores/aborted')).n_docs, 30);
});

t.test('on a terminal: a bar with documents/s and ETA, redrawn in place', async (t) => {
  let now = 0;
  const out: string[] = [];
  const p = new Progress({ isTTY: true, columns: 80, write: (s: string) => out.push(s) }, { total: 1000, now: () => now });
  now = 2000;
  p.update(250);
  p.draw();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the progress bar's terminal escape code (ESC [K, erase line) is what is checked
  t.match(out[0], /^\r\[#+-+\] {2}25% 250\/1000 docs · 125 docs\/s · ETA 6s\x1b\[K$/);
  t.ok(out[0].length - 4 <= 80, 'fits the width');
  p.stop();
  t.equal(out.at(-1), '\r\x1b[K', 'erased at the end');
  now = 0;
  const plain = new Progress({ write: () => undefined }, { now: () => now });
  now = 1000;
  plain.update(10);
  t.equal(plain.line(), 'ingest: 10 documents, 10 docs/s', 'no total: no percent or ETA');
});
