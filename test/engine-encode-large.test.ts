// A document over WORKERS.largeDocChars is encoded in pieces on every worker (index/encode.ts,
// segment/encode-large.ts): its encoding and segment are byte for byte what the one-task `encode`
// op makes of it (its sections' titles too, under heading lines or entries), a batch's documents keep their order
// around it, the pieces are many, and a pool with one worker and no queue takes it too.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import { encodeBatch } from '../src/engine/index/index.js';
import { createEngineRuntime, startEngine } from '../src/engine/index.js';
import { denseScratchBytes, loadModel, readModelFolder } from '../src/engine/model/index.js';
import { WORKERS } from '../src/engine/params.js';
import { decodeBlob, type EncodeResult } from '../src/engine/segment/index.js';
import { SHARED } from './helpers/server.js';

const runtime = await createEngineRuntime();
const { descriptor } = loadModel(readModelFolder(defaultModelUri()), runtime.heap);
const { engine, ctx } = startEngine(runtime, descriptor, { threads: 2 });
t.teardown(() => engine.close());

// wiki-pool paragraphs joined into one document of about 1.5 x largeDocChars, first line its title
const lines = fs.readFileSync(path.join(SHARED, 'bench/wiki-pool/corpus.jsonl'), 'utf8').split('\n');
const parts: string[] = [];
let size = 0;
for (const line of lines) {
  if (size > 1.5 * WORKERS.largeDocChars) break;
  const text = (JSON.parse(line) as { text: string }).text;
  parts.push(text);
  size += text.length + 2;
}
const book = `A Book of Paragraphs\n${parts.join('\n\n')}`;

const bytes = (a: ArrayBufferView | ArrayBufferLike) =>
  Buffer.from(ArrayBuffer.isView(a) ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : new Uint8Array(a));

t.test('a large document in pieces: the bytes of one encode task', async (t) => {
  const calls = new Map<string, number>();
  const counting = {
    ...ctx,
    withScratch: <R>(op: string, n: number, args: Record<string, unknown>, lane?: { background?: boolean }) => {
      calls.set(op, (calls.get(op) ?? 0) + 1);
      return ctx.withScratch<R>(op, n, args, lane);
    },
  };
  const batch = await encodeBatch(counting, [{ id: 'book', text: book, metadata: { kind: 'book' } }]);
  t.ok((calls.get('encodePiece') ?? 0) >= Math.floor(book.length / WORKERS.pieceChars), `in pieces (${calls.get('encodePiece')})`);
  t.notOk(calls.has('encode'), 'not as one task');

  const whole = await ctx.withScratch<EncodeResult>('encode', denseScratchBytes(descriptor.params.dense?.dim ?? 0), {
    docs: [{ text: book, title: undefined }],
  });
  const [doc] = batch.docs;
  t.equal(doc.id, 'book');
  t.same(doc.metadata, { kind: 'book' });
  t.equal(doc.nTokens, whole.docs[0].nTokens, 'tokens');
  t.same(doc.passages, whole.docs[0].passages, 'passage offsets');
  t.ok(bytes(doc.encoding).equals(bytes(whole.docs[0].blob)), 'the stored encoding');
  const sections = decodeBlob(doc.encoding, descriptor.fingerprint).sections.length;
  t.ok(sections > parts.length / 2, `the sections under its paragraphs' title lines (${sections}) among them`);
  const seg = (batch.segments[0] as { built: EncodeResult['built'] }).built;
  for (const k of ['image', 'rowDoc', 'rowStart', 'rowEnd', 'blen', 'tlen'] as const)
    t.ok(bytes(seg[k]).equals(bytes(whole.built[k])), `segment ${k}`);
});

t.test('a batch keeps its order around a large document, titled by its metadata', async (t) => {
  const small = (id: string) => ({ id, text: `${id} is a short document about rivers.` });
  const titled = { id: 'book', text: book, metadata: { title: 'Paragraphs, a Book' } };
  const batch = await encodeBatch(ctx, [small('a'), small('b'), titled, small('c')]);
  t.same(
    batch.docs.map((d) => d.id),
    ['a', 'b', 'book', 'c'],
  );
  t.same(
    (batch.segments as Array<{ docs: Array<{ id: string }> }>).map((s) => s.docs.map((d) => d.id)),
    [['a', 'b'], ['book'], ['c']],
  );
  const whole = await ctx.withScratch<EncodeResult>('encode', denseScratchBytes(descriptor.params.dense?.dim ?? 0), {
    docs: [{ text: book, title: titled.metadata.title }],
  });
  t.ok(bytes(batch.docs[2].encoding).equals(bytes(whole.docs[0].blob)), 'the title from metadata, as one encode task reads it');
});

t.test('a large document without headings, read by its entries: the bytes of one encode task', async (t) => {
  const untitled = parts.map((p) => p.slice(p.indexOf('\n') + 1)).join('\n\n');
  const [doc] = (await encodeBatch(ctx, [{ id: 'entries', text: untitled }])).docs;
  const whole = await ctx.withScratch<EncodeResult>('encode', denseScratchBytes(descriptor.params.dense?.dim ?? 0), {
    docs: [{ text: untitled, title: undefined }],
  });
  t.same(doc.passages, whole.docs[0].passages, 'passage offsets');
  t.ok(bytes(doc.encoding).equals(bytes(whole.docs[0].blob)), 'the stored encoding');
  const sections = decodeBlob(doc.encoding, descriptor.fingerprint).sections.length;
  t.ok(sections > parts.length / 4, `the sections under its entries (${sections} of ${parts.length} paragraphs)`);
});

t.test('a pool without a queue still takes a large document, a task at a time', async (t) => {
  const rt = await createEngineRuntime();
  const one = startEngine(rt, loadModel(readModelFolder(defaultModelUri()), rt.heap).descriptor, { threads: 1, maxQueue: 0 });
  t.teardown(() => one.engine.close());
  const [alone] = (await encodeBatch(one.ctx, [{ id: 'book', text: book }])).docs;
  const [shared] = (await encodeBatch(ctx, [{ id: 'book', text: book }])).docs;
  t.ok(bytes(alone.encoding).equals(bytes(shared.encoding)), 'the same encoding on one worker as on two');
});
