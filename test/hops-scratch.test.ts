// A later hop's scan goes into score and mark buffers that hop 1 copied once (s2, mark2); each
// hop puts back the rows it changed, from the touched-row list, instead of copying the buffers whole
// again. Checked: after every hop s2 and mark2 equal s and mark again, and a hop's candidates and
// features are the same whatever hops ran before it, with exact and with approximate scans.
import t from 'tap';
import { restrictedTerms, Searcher } from '../src/engine/ranking/index.js';
import { openShippedStore } from './helpers/shipped-store.js';

const words = ['river', 'castle', 'painter', 'harbour', 'treaty', 'opera', 'glacier', 'festival', 'railway', 'monastery'];
const names = ['Alma Reyes', 'Borek Stein', 'Cato Lind', 'Dara Quinn', 'Elis Varga', 'Fenn Holt'];
const docs = Array.from({ length: 400 }, (_, i) => {
  const title = `${names[i % names.length]} ${i}`;
  const other = `${names[(i * 7 + 3) % names.length]} ${(i * 7 + 3) % 400}`;
  const body = [0, 1, 2, 3].map((j) => words[(i * (j + 3) + j) % words.length]).join(' ');
  const verb = ['painted', 'mapped', 'sang of', 'guarded', 'signed'][i % 5];
  return { id: `d${i}`, text: `${title}\n${title} ${verb} the ${body} near ${other}, in ${1800 + i}.`, metadata: {} };
});
const store = await openShippedStore(docs);
t.teardown(() => store.close());
const search = store.model.params.search;
if (!search) throw new Error('the shipped model has search parameters');
const exp = search.exp;

for (const budget of [0, 60]) {
  t.test(`${budget ? 'approximate' : 'exact'} scans: every hop puts back what it changed`, async (t) => {
    const base = store.searcher([]);
    const s = new Searcher(base.c, base.stop, base.buf, base.theta, base.denseTables, budget);
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
  });
}
