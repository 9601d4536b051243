// Markdown tables of the peers run, from the child reports: multi-hop (wiki-pool), long documents
// (SQuAD articles, whole and split), the physical floor of an exhaustive hop, and exact scan vs
// HNSW. Invariants: every ratio divides two figures of the same run (svc, or the exact scan, is
// the denominator); memory is each child's peak RSS minus the peak RSS of a child that only loaded
// the same data (plus the sqlite3 process's own peak for FTS5); a missing figure prints as '–'.
import { floorMs } from './bandwidth.js';
import { fmt, mib, num, table } from './bench-util.js';

export interface SystemRun {
  system: string;
  corpus: string;
  report: Record<string, any>;
  /** Peak RSS over the baseline, bytes (helper processes included). */
  memBytes: number;
}

const ratio = (x: number | undefined, base: number | undefined) =>
  x === undefined || !base ? '' : ` (${(x / base).toFixed(x / base < 10 ? 2 : 0)}x)`;
const LABEL: Record<string, string> = {
  svc: 'svc (HTTP)',
  svc1: 'svc, max_hops 1',
  orama: '@orama/orama',
  minisearch: 'minisearch',
  fts5: 'SQLite FTS5',
};

function speed(r: SystemRun, base?: SystemRun): string[] {
  const rep = r.report;
  const dps = rep.docs / rep.ingestSeconds;
  const bdps = base ? base.report.docs / base.report.ingestSeconds : undefined;
  return [
    `${num(dps)}${ratio(dps, bdps)}`,
    `${fmt(rep.engineP50, 1)}${ratio(rep.engineP50, base?.report.engineP50)}`,
    `${fmt(rep.engineP99, 1)}${ratio(rep.engineP99, base?.report.engineP99)}`,
    `${mib(r.memBytes)}${ratio(r.memBytes, base?.memBytes)}`,
  ];
}

export function multiHopTable(runs: SystemRun[]): string {
  const base = runs.find((r) => r.system === 'svc');
  const rows = runs.map((r) => {
    const s = r.report.suites ?? {};
    return [
      LABEL[r.system] ?? r.system,
      fmt(s['hotpotqa-dev']?.allGold10),
      fmt(s['2wiki-dev']?.allGold10),
      fmt(s['musique-dev']?.allGold10),
      fmt(s['hotpotqa-dev']?.allGold2),
      ...speed(r, base),
    ];
  });
  return table(
    ['system', 'hotpotqa all-gold@10', '2wiki @10', 'musique @10', 'hotpotqa @2', 'ingest docs/s', 'search p50 ms', 'p99 ms', 'memory MiB'],
    rows,
  );
}

export function longDocTable(runs: SystemRun[]): string {
  const base = runs.find((r) => r.system === 'svc');
  const rows = runs.map((r) => {
    const m = r.report.suites?.['squad-articles-dev'] ?? {};
    const given = r.corpus === 'squad-split' ? `${r.report.units} paragraphs` : `${r.report.docs} articles whole`;
    return [LABEL[r.system] ?? r.system, given, fmt(m.hit1), fmt(m.hit1Uncapped), fmt(m.hit5), fmt(m.doc1), ...speed(r, base)];
  });
  return table(
    [
      'system',
      'given',
      'answer hit@1',
      'hit@1 any length',
      'hit@5',
      'gold doc @1',
      'ingest docs/s',
      'search p50 ms',
      'p99 ms',
      'memory MiB',
    ],
    rows,
  );
}

/** The floor of one exhaustive hop over svc's wiki-pool index, against svc's measured latency. */
export function floorLines(o: { gbs: number; svc?: SystemRun; profile?: Record<string, any>; dim?: number }): string[] {
  const out: string[] = [`Sequential read bandwidth (memchr over 512 MiB, best of 9): ${o.gbs.toFixed(1)} GB/s.`];
  const rep = o.svc?.report;
  if (rep?.indexBytes) {
    const f = floorMs(rep.indexBytes, o.gbs);
    out.push(
      `svc's wiki-pool index: ${mib(rep.indexBytes)} MiB for ${rep.passages} passages. Reading all of it once takes ${f.toFixed(2)} ms, ` +
        `the floor of one exhaustive hop; svc's search p50 is ${fmt(rep.engineP50, 1)} ms (${(rep.engineP50 / f).toFixed(0)}x the floor) over ${fmt(rep.suites?.['hotpotqa-dev']?.hops, 2)} hops on average.`,
    );
  }
  const p = o.profile;
  if (p?.kernelBytesPerSearch) {
    const f = floorMs(p.kernelBytesPerSearch, o.gbs);
    out.push(
      `Measured in-process (same index, ${p.queries} questions): the kernels stream ${(p.kernelBytesPerSearch / 2 ** 20).toFixed(1)} MiB per search ` +
        `(${(p.kernelBytesPerSearch / (4 * p.totalRows)).toFixed(0)} passes over a 4-byte score per passage): floor ${f.toFixed(2)} ms; ` +
        `the kernels take ${p.kernelMsPerSearch.toFixed(2)} ms and the whole search ${p.searchMean.toFixed(1)} ms (mean): ` +
        `${(100 * (1 - p.kernelMsPerSearch / p.searchMean)).toFixed(0)}% of a search is JavaScript outside the kernels.`,
    );
  }
  if (rep?.passages) {
    const dim = o.dim ?? 256;
    out.push(
      `An exhaustive dense hop over the same passages as int8 x ${dim} (the model's encodings; svc reads them only for its reranked candidates) would stream ${mib(rep.passages * (dim + 4))} MiB: floor ${floorMs(rep.passages * (dim + 4), o.gbs).toFixed(2)} ms.`,
    );
  }
  return out;
}

/** Exact scan vs HNSW at equal recall, one row per vector kind. */
export function annTable(reports: Array<Record<string, any>>): string {
  const rows = reports.map((r) => {
    const at = (target: number) => (r.curve as Array<{ ef: number; recall: number; p50: number }>).find((c) => c.recall >= target);
    const cell = (target: number) => {
      const c = at(target);
      return c ? `${c.p50.toFixed(3)} (ef ${c.ef}, ${(r.exactP50 / c.p50).toFixed(1)}x)` : 'not reached';
    };
    const best = Math.max(...r.curve.map((c: { recall: number }) => c.recall));
    return [
      r.kind,
      num(r.n),
      r.exactP50.toFixed(3),
      cell(0.9),
      cell(0.95),
      cell(0.99),
      fmt(best),
      num(r.n / r.buildSeconds),
      mib(r.indexFileBytes),
    ];
  });
  return table(
    [
      'vectors',
      'n',
      'exact scan ms',
      'HNSW ms @ recall 0.90 (speed-up)',
      '@ 0.95',
      '@ 0.99',
      'best recall',
      'HNSW build vectors/s',
      'HNSW MiB',
    ],
    rows,
  );
}
