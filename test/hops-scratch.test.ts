// A later hop's scan goes into score and mark buffers that hop 1 copied once (s2, mark2); each
// hop puts back the rows it changed, from the touched-row list, instead of copying the buffers whole
// again. Checked: after every hop s2 and mark2 equal s and mark again, and a hop's candidates and
// features are the same whatever hops ran before it, with exact and with approximate scans, over
// buffers zeroed whole or kept clean (question-scan.ts: rows a later hop lists read 0 in s); and the
// restricted terms of an approximate scan add the same read from the listed rows (rows-scan.ts);
// chains that end at one passage share its scan (hopNexts) and get what a hop of their own gives.
import t from 'tap';
import { restrictedTerms, Searcher } from '../src/engine/ranking/index.js';
import { termId, tokenize } from '../src/engine/text/index.js';
import { NAMED_ROWS, openShippedStore } from './helpers/shipped-store.js';

const docs = NAMED_ROWS;
const store = await openShippedStore(docs);
t.teardown(() => store.close());
const search = store.model.params.search;
if (!search) throw new Error('the shipped model has search parameters');
const exp = search.exp;

/** Each budget's hops in the scratch tested first (filled), to compare the clean scratch's with. */
const hopsByBudget = new Map<number, Map<number, string>>();
for (const [budget, scratch] of [
  [0, 'fill'],
  [60, 'fill'],
  [0, 'dirty'],
  [60, 'dirty'],
] as const) {
  t.test(`${budget ? 'approximate' : 'exact'} scans, ${scratch} scratch: every hop puts back what it changed`, async (t) => {
    const base = store.searcher([]);
    const s = new Searcher(base.c, base.stop, base.buf, base.theta, base.denseTables, budget, scratch);
    const n = s.c.totalRows;
    const views = s.c.kernels.views;
    const bytes = (ptr: number, len: number) => Buffer.from(views.u8At(ptr, len));
    const question = 'Who guarded the glacier of Cato Lind 14?';
    const run = (order: number[]) => {
      const q = s.query(question);
      const beam = new Set(q.order.slice(0, 3));
      const out = new Map<number, string>();
      for (const p of order) {
        const next = s.hopNext(q, [p], beam, exp);
        t.ok(next.rows.length > 0, `read ${p}: candidates`);
        out.set(p, JSON.stringify([next.rows, next.features.map((f) => Array.from(f))]));
        t.ok(bytes(s.buf.s2, 4 * n).equals(bytes(s.buf.s, 4 * n)), `read ${p}: s2 is s again`);
        t.ok(bytes(s.buf.mark2, n).equals(bytes(s.buf.mark, n)), `read ${p}: mark2 is mark again`);
      }
      return { out, top: q.order.slice(0, 6) };
    };
    const first = run([]);
    t.ok(first.top.length >= 4, 'the question scores several rows');
    const q = s.query(question);
    const hop1 = views.u8At(s.buf.mark, n).reduce((a, m) => a + m, 0);
    t.ok(hop1 > 0 && hop1 < n, 'hop 1 marks some rows and leaves others for the later hops to mark');
    t.equal(restrictedTerms(s.c, q.qt, budget).some(Boolean), budget > 0, 'approximate: some terms only add to touched rows');
    const forward = run(first.top);
    const backward = run([...first.top].reverse());
    for (const p of first.top) t.equal(backward.out.get(p), forward.out.get(p), `read ${p}: the same hop in either order`);
    // no row of this store is dead, so a clean scratch reads what a filled one does
    const filled = hopsByBudget.get(budget);
    if (filled) for (const p of first.top) t.equal(forward.out.get(p), filled.get(p), `read ${p}: the same hop in either scratch`);
    else hopsByBudget.set(budget, forward.out);
  });
}

t.test('restricted terms read from the listed rows add what their postings add', async (t) => {
  const { c, buf } = store.searcher([]);
  const n = c.totalRows;
  const views = c.kernels.views;
  const terms = Array.from(tokenize('Cato Lind glacier river painter castle').forms, termId);
  const weights = terms.map((_, i) => 0.5 + i / 4);
  const restrict = terms.map((_, i) => i >= 2);
  const scan = (byRows: 'auto' | 'always' | undefined) => {
    c.kernels.fillBytes(buf.s, 4 * n);
    c.kernels.fillBytes(buf.mark, n);
    const marks = { ptr: buf.mark, list: buf.idx, listed: 0, restrict, terms: byRows ? buf.rowTerms : 0, byRows };
    const marked = c.accumulate(terms, weights, buf.s, marks);
    return { marked, scores: Buffer.from(views.u8At(buf.s, 4 * n)) };
  };
  const postings = scan(undefined);
  const rows = scan('always');
  t.ok(postings.marked > 0 && postings.marked < n, 'the rare terms touch some rows');
  t.equal(rows.marked, postings.marked, 'the same rows marked');
  t.ok(rows.scores.equals(postings.scores), 'the same scores, bit for bit');
});

for (const budget of [0, 60]) {
  t.test(`${budget ? 'approximate' : 'exact'} scans: chains ending at one passage share its scan`, async (t) => {
    const base = store.searcher([]);
    const s = new Searcher(base.c, base.stop, base.buf, base.theta, base.denseTables, budget);
    const n = s.c.totalRows;
    const views = s.c.kernels.views;
    const bytes = (ptr: number, len: number) => Buffer.from(views.u8At(ptr, len));
    const q = s.query('Who guarded the glacier of Cato Lind 14?');
    const [a, b, p, d] = q.order;
    t.ok(d !== undefined, 'the question scores several rows');
    const chains = [[a, p], [p], [b, p], [a, d], [b, a, p]];
    const alone = chains.map((reads) => s.hopNext(q, reads, new Set(), exp));
    const shared = s.hopNexts(q, chains, new Set(), exp);
    const show = (x: (typeof alone)[number]) => JSON.stringify([x.rows, x.features.map((f) => Array.from(f)), x.expansion, [...x.links]]);
    t.equal(shared.length, chains.length, 'one hop a chain');
    for (const [i, reads] of chains.entries()) t.equal(show(shared[i]), show(alone[i]), `[${reads}]: the same candidates and features`);
    t.not(show(shared[0]), show(shared[2]), 'chains through one passage from different passages differ');
    t.ok(bytes(s.buf.s2, 4 * n).equals(bytes(s.buf.s, 4 * n)), 's2 is s again');
    t.ok(bytes(s.buf.mark2, n).equals(bytes(s.buf.mark, n)), 'mark2 is mark again');
  });
}
