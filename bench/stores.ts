// `npm run bench -- stores [--stores 1000] [--docs 100] [--baseline DIR] [--idle 2]`: many stores on
// one node. For this build (and, with --baseline, another checkout's build: its `bin/svc.js` and
// `dist/`, run the same way beside it), a server in a child process is given `--stores` stores of
// `--docs` short documents each and restarted: the time from spawn to a ready /v1/health, and its
// RSS once ready. Then a server holding the wiki-pool alone (about 45k passages) is restarted with
// SVC_STORE_IDLE_S=--idle: its store is warmed at start and closes when idle; its RSS before and
// after the close, and the round trip of the first search after it (the store opened again) and of
// the next one. Each build builds
// its own data dirs (a data dir made by another model version would be re-encoded at start).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machineLine, suiteCorpus, table } from './bench-util.js';
import { call, comparedBuilds, rssMiB, serve, stop } from './child-server.js';

const { values: args } = parseArgs({
  options: {
    stores: { type: 'string', default: '1000' },
    docs: { type: 'string', default: '100' },
    baseline: { type: 'string' },
    idle: { type: 'string', default: '2' },
  },
});
const nStores = Number(args.stores);
const nDocs = Number(args.docs);
const idleS = Number(args.idle);

const WORDS = 'river town hill mill bridge lake forest castle market harbour valley tower chapel road field farm'.split(' ');
const docText = (s: number, d: number) =>
  `Place ${s}-${d}. ${Array.from({ length: 24 }, (_, i) => WORDS[(s * 7 + d * 3 + i * 5) % WORDS.length]).join(' ')} number ${s * 1000 + d}.`;

/** `nStores` stores of `nDocs` documents, made through the build's own server. */
async function manyStores(build: string, dataDir: string): Promise<void> {
  const r = await serve(build, dataDir);
  try {
    let next = 0;
    const worker = async () => {
      while (next < nStores) {
        const s = next++;
        await call(r.base, 'POST', '/stores', { name: `s${s}` });
        await call(r.base, 'POST', `/stores/s${s}/documents`, {
          documents: Array.from({ length: nDocs }, (_, d) => ({ id: `d${d}`, text: docText(s, d) })),
        });
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    await stop(r);
  }
}

async function wikiStore(build: string, dataDir: string): Promise<void> {
  const r = await serve(build, dataDir);
  try {
    await call(r.base, 'POST', '/stores', { name: 'wiki' });
    const corpus = suiteCorpus('hotpotqa-dev');
    for (let i = 0; i < corpus.length; i += 500)
      await call(r.base, 'POST', '/stores/wiki/documents', {
        documents: corpus.slice(i, i + 500).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })),
      });
  } finally {
    await stop(r);
  }
}

const timed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

async function measure(label: string, build: string): Promise<string[][]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-stores-'));
  try {
    const many = path.join(root, 'many');
    await manyStores(build, many);
    const r = await serve(build, many);
    const rss = rssMiB(r.child.pid!);
    const listed = (await call(r.base, 'GET', '/stores?limit=100')) as { stores: unknown[] };
    const first = await timed(() =>
      call(r.base, 'POST', `/stores/s${nStores - 1}/search`, { query: 'Which place lies by the river mill?' }),
    );
    await stop(r);
    process.stderr.write(`${label}: ${nStores} stores ready in ${r.readyMs.toFixed(0)} ms, RSS ${rss.toFixed(0)} MiB\n`);

    const wiki = path.join(root, 'wiki');
    await wikiStore(build, wiki);
    const w = await serve(build, wiki, { SVC_STORE_IDLE_S: String(idleS) });
    const wikiRss = rssMiB(w.child.pid!);
    await new Promise((res) => setTimeout(res, (2.5 * idleS + 1) * 1000));
    const closedRss = rssMiB(w.child.pid!);
    const ask = (q: string) => () => call(w.base, 'POST', '/stores/wiki/search', { query: q });
    const cold = await timed(ask('Which university has its main campus in Lawrence, Kansas?'));
    const warm = await timed(ask('Who directed the film Inception?'));
    await stop(w);
    return [
      [
        label,
        `${nStores} x ${nDocs}`,
        r.readyMs.toFixed(0),
        rss.toFixed(0),
        listed.stores.length ? first.toFixed(0) : 'n/a',
        w.readyMs.toFixed(0),
        wikiRss.toFixed(0),
        closedRss.toFixed(0),
        cold.toFixed(0),
        warm.toFixed(0),
      ],
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const [label, build] of comparedBuilds(args.baseline)) rows.push(...(await measure(label, build)));
console.log(`\n${machineLine()}\n`);
console.log(
  table(
    [
      'build',
      'stores x docs',
      'ready ms',
      'RSS MiB',
      'first search ms',
      'wiki-pool: ready ms',
      'RSS MiB',
      `RSS MiB after ${idleS} s idle`,
      'search then, ms',
      'next search ms',
    ],
    rows,
  ),
);
