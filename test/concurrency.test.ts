// Concurrency on one store: writer clients ingest, upsert and delete their own documents while two
// clients fight over shared ids, readers search, get and walk pages, and another client creates,
// fills, searches and deletes stores. Proves: no 5xx and no hang; the final state is exactly what
// the acknowledged operations imply (owned ids) or the state of one acknowledged write (contended
// ids), with text, listing and search agreeing; no replaced or deleted version is found; a cursor
// walk never returns a document twice; and a restart (index rebuilt from disk) agrees with it all.
import t from 'tap';
import { rng } from './helpers/engine.js';
import { type Api, startTestServer } from './helpers/server.js';
import { verifyDataDir, walkDocs } from './helpers/store-check.js';

const statuses = new Map<number, number>();
const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
const token = (id: string, v: number) => `zq${id.replace(/\W+/g, 'x')}v${v}`;
const text = (id: string, v: number) =>
  `Entry ${id} revision ${v}. Marker ${token(id, v)}. ${'Harbours, forests and railways are described here. '.repeat(3)}`;

async function call(api: Api, method: string, p: string, body?: unknown) {
  const r = await api.raw(method, p, body);
  count(r.status);
  return r;
}

/** Versions written to an id by acknowledged operations (null: a delete). */
const history = new Map<string, Array<number | null>>();
let version = 0;

/** Replies an owner of its ids cannot get (it knows their state): any is a bug. */
const unexpected: string[] = [];

async function writer(api: Api, ids: string[], ops: number, r: () => number, current: Map<string, number | null>, owner: boolean) {
  for (let i = 0; i < ops; i++) {
    const pick = ids.filter(() => r() < 0.3).slice(0, 1 + Math.floor(r() * 6));
    const present = pick.filter((id) => current.get(id) != null);
    if (pick.length && (r() < 0.65 || !present.length)) {
      const docs = pick.map((id) => ({ id, v: ++version }));
      const res = await call(api, 'POST', '/stores/shared/documents', {
        documents: docs.map((d) => ({ id: d.id, text: text(d.id, d.v), metadata: { v: d.v } })),
      });
      if (res.status === 200) {
        for (const d of docs) {
          current.set(d.id, d.v);
          history.get(d.id)!.push(d.v);
        }
      } else unexpected.push(`ingest ${res.status}`);
    } else if (present.length) {
      const res = await call(api, 'DELETE', `/stores/shared/documents/${encodeURIComponent(present[0])}`);
      if (res.status === 204) {
        current.set(present[0], null);
        history.get(present[0])!.push(null);
      } else if (owner || res.status !== 404) unexpected.push(`delete ${present[0]}: ${res.status}`);
    } else {
      await call(api, 'POST', '/stores/shared/search', { query: `harbours ${token(ids[0], 1)}`, return_trace: true });
    }
  }
}

async function reader(api: Api, rounds: number, dupes: string[]) {
  for (let i = 0; i < rounds; i++) {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const r = await call(api, 'GET', `/stores/shared/documents?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      for (const d of r.body.documents ?? []) seen.has(d.id) ? dupes.push(d.id) : seen.add(d.id);
      cursor = r.body.next_cursor ?? null;
      await call(api, 'POST', '/stores/shared/search', { query: 'harbours forests railways', max_hops: 3 });
      await call(api, 'GET', `/stores/shared/documents/w0-${i % 10}?include_text=true`);
    } while (cursor);
  }
}

async function storeChurn(api: Api, rounds: number) {
  for (let i = 0; i < rounds; i++) {
    await call(api, 'POST', '/stores', { name: `tmp${i}` });
    const busy = [
      call(api, 'POST', `/stores/tmp${i}/documents`, { documents: [{ id: 'x', text: text('x', i) }] }),
      call(api, 'POST', `/stores/tmp${i}/search`, { query: 'harbours' }),
      call(api, 'GET', `/stores/tmp${i}/documents/x?include_text=true`),
      call(api, 'DELETE', `/stores/tmp${i}`),
      call(api, 'POST', `/stores/tmp${i}/search`, { query: 'railways' }),
    ];
    await Promise.all(busy);
  }
}

t.test('many clients on one store: no 5xx, final state as acknowledged', async (t) => {
  const ts = await startTestServer(t, { rateLimit: 1e6 });
  const { api } = ts;
  await api.post('/stores', { name: 'shared' });
  const owned = Array.from({ length: 4 }, (_, w) => Array.from({ length: 15 }, (_, n) => `w${w}-${n}`));
  const contended = Array.from({ length: 8 }, (_, n) => `both/${n}`);
  for (const id of [...owned.flat(), ...contended]) history.set(id, []);
  const current = new Map<string, number | null>();
  const r = rng(Number(process.env.SVC_CONCURRENCY_SEED ?? 7));
  const dupes: string[] = [];
  await Promise.all([
    ...owned.map((ids) => writer(api, ids, 40, rng(Math.floor(r() * 1e9)), current, true)),
    writer(api, contended, 40, rng(11), new Map(), false),
    writer(api, contended, 40, rng(12), new Map(), false),
    reader(api, 3, dupes),
    storeChurn(api, 6),
  ]);
  t.same(
    [...statuses.keys()].filter((s) => s >= 500),
    [],
    `no 5xx among ${[...statuses.values()].reduce((a, b) => a + b)} requests (${JSON.stringify(Object.fromEntries(statuses))})`,
  );
  t.same(dupes, [], 'no cursor walk returned a document twice');
  t.same(unexpected, [], 'every write of an owner succeeded');

  const check = async (label: string, api: Api) => {
    const wrong: string[] = [];
    const listed = new Map((await walkDocs(api, 'shared')).map((d) => [d.id, d.metadata.v as number]));
    for (const id of owned.flat())
      if ((listed.get(id) ?? null) !== (current.get(id) ?? null)) wrong.push(`${id} is ${listed.get(id)}, acknowledged ${current.get(id)}`);
    for (const id of contended) {
      const v = listed.get(id) ?? null;
      if (!(history.get(id)!.length === 0 ? v === null : history.get(id)!.includes(v)))
        wrong.push(`${id} is ${v}, no acknowledged write left it so`);
    }
    t.same(wrong, [], `${label}: ${listed.size} documents listed, each as acknowledged`);
    const unfound: string[] = [];
    for (const [id, v] of listed) {
      const doc = await api.get(`/stores/shared/documents/${encodeURIComponent(id)}?include_text=true`);
      if (doc.text !== text(id, v)) unfound.push(`${id} text is not v${v}`);
      const hit = await api.post('/stores/shared/search', { query: token(id, v), max_hops: 1 });
      if (hit.passages[0]?.doc_id !== id) unfound.push(`${id} v${v} not found by its marker`);
    }
    t.same(unfound, [], `${label}: every document has its text and is found by its marker`);
    const stale: string[] = []; // the last two replaced or deleted versions of each id
    let checked = 0;
    for (const [id, vs] of history) {
      for (const v of vs.filter((x): x is number => x !== null && x !== listed.get(id)).slice(-2)) {
        checked++;
        const hit = await api.post('/stores/shared/search', { query: token(id, v), max_hops: 1 });
        if (hit.passages.some((p: any) => p.doc_id === id)) stale.push(`${id} v${v}`);
      }
    }
    t.same(stale, [], `${label}: none of ${checked} replaced or deleted versions is found`);
  };
  await check('live', api);
  await ts.server.close();
  t.same(await verifyDataDir(ts.dataDir), [], 'every store passes StoreDb.verify');
  const again = await startTestServer(t, { dataDir: ts.dataDir, rateLimit: 1e6 });
  await check('restarted', again.api);
  t.same(
    (await again.api.get('/stores')).stores.map((s: any) => s.name),
    ['shared'],
    'only the store that was not deleted',
  );
});
