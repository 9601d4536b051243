// `npm run bench -- alloc [--suite S]... [--top N]`: what a search and an ingest allocate on the
// JavaScript heap, the garbage a worker's young generation absorbs (docs/memory.md). The wiki-pool's
// documents are first run through the encode op on this thread (the op a worker runs on an ingest:
// analysis, dense encoding, the segment's build), then indexed in-process (engine-harness.ts); each
// suite's questions are searched once untimed (the search code compiles) and then again. Both are
// measured under V8's sampling heap profiler, counting the objects that minor and major collections
// freed as well as those still alive. Prints KiB per document and per search, and the allocation
// sites with the most bytes, as `caller > allocating function file:column` (tsx's transpiled
// columns). Invariants: the kernels are called directly, not through the profile's wrapper; the
// figures are sampled (one sample per `--interval` bytes, default 4096), so a site's share is an
// estimate; nothing is asserted.
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { denseScratchBytes } from '../src/engine/model/index.js';
import { encodeOp } from '../src/engine/segment/index.js';
import { type Doc, log, MULTI_HOP_SUITES, machineLine, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { EngineHarness } from './engine-harness.js';

interface SampleNode {
  callFrame: { functionName: string; url: string; columnNumber: number };
  selfSize: number;
  children: SampleNode[];
}

const { values } = parseArgs({
  options: {
    suite: { type: 'string', multiple: true },
    top: { type: 'string', default: '12' },
    interval: { type: 'string', default: '4096' },
  },
});
const suites = values.suite?.length ? values.suite : [...MULTI_HOP_SUITES];
const top = Number(values.top);

const frameName = (f: SampleNode['callFrame']) =>
  `${f.functionName || '(anonymous)'} ${f.url ? path.basename(f.url) : ''}:${f.columnNumber}`.trim();

/** Bytes by allocating site (the function and its caller), summed over the profile's tree. */
function bySite(head: SampleNode): { total: number; sites: Map<string, number> } {
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (n: SampleNode, caller: string) => {
    const name = frameName(n.callFrame);
    if (n.selfSize) {
      const key = `${caller} > ${name}`;
      sites.set(key, (sites.get(key) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, name);
  };
  walk(head, '(root)');
  return { total, sites };
}

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
/** Runs `fn` under the sampling heap profiler; the bytes it allocated, by site. */
async function sampled(fn: () => void): Promise<{ total: number; sites: Map<string, number> }> {
  // the collected objects' flags are newer than @types/node's parameter type: passed as a plain object
  const sampling: object = {
    samplingInterval: Number(values.interval),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  };
  await session.post('HeapProfiler.startSampling', sampling);
  fn();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
  return bySite(profile.head);
}

const summary: string[][] = [];
const details: string[] = [];
/** Adds a measured stretch to the report: `count` units (`unit`: document, search; `units`, its plural) and its heaviest sites. */
function report(
  what: string,
  [unit, units]: [string, string],
  count: number,
  { total, sites }: { total: number; sites: Map<string, number> },
): void {
  summary.push([what, `${count} ${units}`, (total / count / 1024).toFixed(1)]);
  const rows = [...sites]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([site, bytes]) => [(bytes / count / 1024).toFixed(2), `${((100 * bytes) / total).toFixed(1)}%`, `\`${site}\``]);
  details.push(`\n${what}: the ${top} sites that allocate most\n\n${table([`KiB per ${unit}`, 'share', 'site'], rows)}`);
}

const h = await EngineHarness.open();
h.profileKernels = false;
const docs = suiteCorpus(suites[0]);

log(`encoding the wiki-pool (${suites[0]}'s corpus) on this thread`);
const dim = h.model.params.dense?.dim ?? 0;
const scratch = h.runtime.heap.alloc(denseScratchBytes(dim));
const encodeAll = (ds: Doc[]) => {
  for (let i = 0; i < ds.length; i += 256) {
    const chunk = ds.slice(i, i + 256).map((d) => ({ text: d.text, title: d.metadata?.title }));
    encodeOp({ kernels: h.runtime.kernels, regions: [h.runtime.kernels.views], shared: h.model }, { docs: chunk, scratch });
  }
};
// the first half warms the code and the term caches up; the second half is measured
const half = Math.floor(docs.length / 2);
encodeAll(docs.slice(0, half));
report('encode (ingest)', ['document', 'documents'], docs.length - half, await sampled(() => encodeAll(docs.slice(half))));
h.runtime.heap.free(scratch);

log('indexing it');
for (let i = 0; i < docs.length; i += 2000) await h.add(docs.slice(i, i + 2000));
await h.settle();
for (const suite of suites) {
  const queries = suiteQueries(suite).map((q) => q.query);
  const searchAll = () => {
    for (const q of queries) h.search(q);
  };
  searchAll();
  report(`search ${suite}`, ['search', 'searches'], queries.length, await sampled(searchAll));
}
session.disconnect();
await h.close();

console.log(
  `\nCommand: \`npm run bench -- alloc\` at ${new Date().toISOString()}, the wiki-pool in-process, sampled every ${values.interval} bytes.`,
);
console.log(machineLine());
console.log(`\n${table(['what', 'measured on', 'KiB allocated per unit'], summary)}`);
for (const d of details) console.log(d);
