// One system on one corpus, in its own process so its peak RSS is its own: loads the workload (the
// same data in every child, so a `none` child is the memory baseline), ingests it, runs every query
// of its suites one at a time, and prints one JSON report line: ingest seconds, per-suite metrics,
// latency percentiles, the system's own figures and this process's peak RSS.
// Args (one JSON object): { system: 'svc'|'svc1' (max_hops 1)|'orama'|'minisearch'|'fts5'|'none', corpus, multiHop?, squad?, k? }.
import { type Doc, log, percentile, selfMaxRss } from './bench-util.js';
import { Fts5System } from './peer-fts5.js';
import { MiniSearchSystem, OramaSystem } from './peer-js.js';
import { type BenchSystem, SvcSystem } from './peer-svc.js';
import { allGold, answerHit, type CorpusName, docHit, loadWorkload, splitAtBlankLines, type Unit, type Workload } from './peer-text.js';

interface Args {
  system: 'svc' | 'svc1' | 'orama' | 'minisearch' | 'fts5' | 'none';
  corpus: CorpusName;
  multiHop?: number;
  squad?: number;
  k?: number;
}

const args = JSON.parse(process.argv[2]) as Args;
const k = args.k ?? 10;
const work: Workload = loadWorkload(args.corpus, { multiHop: args.multiHop, squad: args.squad });

function unitsOf(docs: Doc[]): Unit[] {
  if (args.corpus === 'squad-split') return docs.flatMap(splitAtBlankLines);
  const byId = new Map(work.units.map((u) => [u.id, u]));
  return docs.map((d) => byId.get(d.id)!);
}

async function open(): Promise<BenchSystem | undefined> {
  switch (args.system) {
    case 'svc':
      return SvcSystem.start();
    case 'svc1':
      return SvcSystem.start({ maxHops: 1 });
    case 'orama':
      return new OramaSystem(unitsOf);
    case 'minisearch':
      return new MiniSearchSystem(unitsOf);
    case 'fts5':
      return new Fts5System(unitsOf);
    case 'none':
      return undefined;
  }
}

const report: Record<string, unknown> = { system: args.system, corpus: args.corpus, docs: work.docs.length, units: work.units.length };
const sys = await open();
if (sys) {
  const t0 = performance.now();
  await sys.ingest(work.docs);
  report.ingestSeconds = (performance.now() - t0) / 1000;
  if (sys instanceof SvcSystem) report.settleSeconds = await sys.settle();
  log(`${args.system}/${args.corpus}: ingested ${work.docs.length} documents in ${(report.ingestSeconds as number).toFixed(1)} s`);
  const engine: number[] = [];
  const roundTrip: number[] = [];
  const suites: Record<string, Record<string, number>> = {};
  for (const { name, queries } of work.suites) {
    const m = { n: 0, allGold2: 0, allGold10: 0, hit1: 0, hit1Uncapped: 0, hit5: 0, doc1: 0, hops: 0 };
    for (const q of queries) {
      const t = performance.now();
      const a = await sys.search(q.query, k);
      roundTrip.push(performance.now() - t);
      engine.push(a.engineMs);
      m.n++;
      m.hops += a.extra?.hops ?? 0;
      if (q.gold_paragraph === undefined) {
        m.allGold2 += +allGold(q, a.hits, 2);
        m.allGold10 += +allGold(q, a.hits, 10);
      } else if (q.answerable !== false) {
        m.hit1 += +answerHit(q, a.hits, 1);
        m.hit5 += +answerHit(q, a.hits, 5);
        m.hit1Uncapped += +answerHit(q, a.hits, 1, false);
        m.doc1 += +docHit(q, a.hits, 1);
      }
    }
    for (const key of Object.keys(m) as Array<keyof typeof m>) if (key !== 'n') m[key] /= Math.max(m.n, 1);
    suites[name] = m;
    log(`${args.system}/${args.corpus}: ${name} ${m.n} queries done`);
  }
  Object.assign(report, {
    suites,
    queries: engine.length,
    engineP50: percentile(engine, 50),
    engineP99: percentile(engine, 99),
    roundTripP50: percentile(roundTrip, 50),
    roundTripP99: percentile(roundTrip, 99),
    ...sys.stats(),
  });
  await sys.close();
}
report.maxRssBytes = selfMaxRss();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
