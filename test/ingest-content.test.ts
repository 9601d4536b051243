// Ingest of `content` {media_type, data}: real PDFs made here with pdf-lib (one with a text layer,
// one image-only, one mixed) and PNG/JPEG images. A PDF's text layer is extracted locally, with no
// enrichment configured; images and scanned pages go to the vision model of a local
// OpenAI-compatible server (SVC_VISION_MODEL, else SVC_ENRICH_MODEL) and its transcription is what
// is stored, searched and returned by include_text. Without a vision model they are refused with a
// 400 naming the variables; bad content is a 400; a failing or slow vision model is 502/504 and
// writes nothing; the 32 MB limit counts the base64.

import { PDFDocument, StandardFonts } from 'pdf-lib';
import t from 'tap';
import { encodePng } from '../src/ingest-content/png.js';
import { startFakeOpenAi } from './helpers/fake-openai.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer } from './helpers/server.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A small RGB test card: stripes, so the image is not blank. */
function png(width = 48, height = 24): Buffer {
  const px = new Uint8Array(width * height * 3);
  for (let i = 0; i < px.length; i++) px[i] = (i * 37 + Math.floor(i / (width * 3)) * 11) & 255;
  return encodePng(px, width, height, 3);
}

async function pdf(pages: Array<string[] | 'image'>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const image = await doc.embedPng(png());
  for (const content of pages) {
    const page = doc.addPage([420, 300]);
    if (content === 'image') page.drawImage(image, { x: 0, y: 0, width: 420, height: 300 });
    else
      content.forEach((line, i) => {
        page.drawText(line, { x: 24, y: 260 - 18 * i, size: 12, font });
      });
  }
  return doc.save();
}

const LIGHTHOUSE = ['The lighthouse at Skellig was kept by Ada Morrow.', 'She lit the lamp every night from 1887 to 1911.'];
const textPdf = await pdf([LIGHTHOUSE, ['The keeper before her was her father, Tomas Morrow.']]);
const scannedPdf = await pdf(['image']);
const mixedPdf = await pdf([['Harbour records, volume two.'], 'image']);
const doc = (id: string, media_type: string, data: Uint8Array | string) => ({
  id,
  content: { media_type, data: typeof data === 'string' ? data : b64(data) },
});

t.test('without enrichment: a PDF text layer is extracted; images and scanned pages are refused', async (t) => {
  const { api } = await startTestServer(t, { threads: 1 });
  await api.post('/stores', { name: 'files' });
  const r = await api.post('/stores/files/documents', {
    documents: [{ ...doc('lighthouse.pdf', 'application/pdf', textPdf), metadata: { kind: 'pdf' } }],
  });
  t.same(r, { ingested: 1, doc_ids: ['lighthouse.pdf'] });
  const info = await api.get('/stores/files/documents/lighthouse.pdf?include_text=true');
  t.equal(
    info.text,
    `${LIGHTHOUSE.join('\n')}\n\nThe keeper before her was her father, Tomas Morrow.`,
    'pages in order, a blank line between them',
  );
  t.same(info.metadata, { kind: 'pdf' });
  const s = await api.post('/stores/files/search', { query: 'who kept the lighthouse at Skellig' });
  t.equal(s.passages[0].doc_id, 'lighthouse.pdf');
  t.match(s.passages[0].text, /Ada Morrow/);

  for (const [name, d, what] of [
    ['image', doc('card.png', 'image/png', png()), /image/],
    ['scanned PDF', doc('scan.pdf', 'application/pdf', scannedPdf), /page 1 \(no text layer\)/],
    ['mixed PDF', doc('mixed.pdf', 'application/pdf', mixedPdf), /page 2 \(no text layer\)/],
  ] as const) {
    const err = await api.post('/stores/files/documents', { documents: [d] }).catch((e) => e);
    t.match(err, { status: 400, type: 'invalid_request' }, name);
    t.match(err.body.error.message, what, name);
    t.match(err.body.error.fix, /SVC_VISION_MODEL.*SVC_ENRICH_MODEL/, `${name}: the fix names the variables`);
  }
  await rejectsApi(t, api.get('/stores/files/documents/scan.pdf'), { status: 404 }, 'nothing was written');
});

t.test('content validation', async (t) => {
  const { api } = await startTestServer(t, { threads: 1 });
  await api.post('/stores', { name: 'v' });
  const cases: Array<[string, unknown, RegExp]> = [
    ['neither text nor content', { id: 'x' }, /neither text nor content/],
    ['both', { id: 'x', text: 'hi', content: { media_type: 'application/pdf', data: b64(textPdf) } }, /both text and content/],
    ['bad base64 characters (the schema)', doc('x', 'application/pdf', 'not*base64!'), /content\.data must match pattern/],
    ['base64 of a length not a multiple of 4', doc('x', 'application/pdf', 'QUJDRA='), /not valid base64/],
    ['not a PDF', doc('x', 'application/pdf', png()), /not a PDF file/],
    ['not a PNG', doc('x', 'image/png', textPdf), /not a PNG image/],
    ['corrupt PDF', doc('x', 'application/pdf', Buffer.from('%PDF-1.7\nnothing else')), /cannot be read/],
    ['unknown media type', doc('x', 'image/gif', png()), /media_type/],
    ['empty data', { id: 'x', content: { media_type: 'image/png', data: '' } }, /data/],
  ];
  for (const [name, d, message] of cases) {
    const err = await api.post('/stores/v/documents', { documents: [d] }).catch((e) => e);
    t.match(err, { status: 400, type: 'invalid_request' }, name);
    t.match(err.body.error.message, message, name);
    t.ok(err.body.error.fix.length > 0, `${name}: has a fix`);
  }
  const big = 'QUFB'.repeat(8.5 * 1024 * 1024);
  const err = await api.post('/stores/v/documents', { documents: [doc('huge.png', 'image/png', big)] }).catch((e) => e);
  t.match(err, { status: 413, type: 'document_too_large' }, 'the base64 counts toward 32 MB');
  t.match(err.body.error.message, /'huge\.png' is 34\.\d MB/);
});

t.test('with a vision model: images and scanned pages are transcribed through the endpoint', async (t) => {
  const fake = await startFakeOpenAi(t);
  const { api } = await startTestServer(t, {
    threads: 1,
    env: { SVC_ENRICH_URL: fake.url, SVC_VISION_MODEL: 'vision-1', SVC_ENRICH_API_KEY: 'sk-v', SVC_ENRICH_TIMEOUT: '1' },
  });
  await api.post('/stores', { name: 'scans' });
  fake.reply = () => ({ text: 'Harbour ledger 1887: forty barrels of salt landed at Skellig.' });

  const card = png();
  await api.post('/stores/scans/documents', { documents: [doc('ledger.png', 'image/png', card)] });
  const req = fake.requests[0];
  t.equal(req.body.model, 'vision-1');
  t.equal(req.headers.authorization, 'Bearer sk-v');
  t.same(fake.images(req), [`data:image/png;base64,${b64(card)}`], 'the image itself, as an image content part');
  t.match(fake.texts(req).join(' '), /Transcribe/);
  t.equal(
    (await api.get('/stores/scans/documents/ledger.png?include_text=true')).text,
    'Harbour ledger 1887: forty barrels of salt landed at Skellig.',
  );
  t.equal(
    (await api.post('/stores/scans/search', { query: 'barrels of salt ledger' })).passages[0].doc_id,
    'ledger.png',
    'the transcription is searchable',
  );

  fake.requests.length = 0;
  await api.post('/stores/scans/documents', {
    documents: [
      doc('photo.jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4])),
      doc('mixed.pdf', 'application/pdf', mixedPdf),
      doc('text.pdf', 'application/pdf', textPdf),
    ],
  });
  t.equal(fake.requests.length, 2, 'one call for the JPEG, one for the scanned page; none for the text layer');
  const scanned = fake.requests.flatMap((r) => fake.images(r)).find((u) => u.startsWith('data:image/png'))!;
  const page = Buffer.from(scanned.split(',')[1], 'base64');
  t.same([page.readUInt32BE(16), page.readUInt32BE(20)], [48, 24], 'the page image is the PNG drawn on it, at its size');
  t.ok(fake.requests.some((r) => fake.images(r)[0]?.startsWith('data:image/jpeg;base64,')));
  t.equal(
    (await api.get('/stores/scans/documents/mixed.pdf?include_text=true')).text,
    'Harbour records, volume two.\n\nHarbour ledger 1887: forty barrels of salt landed at Skellig.',
  );

  fake.reply = () => ({ status: 500, error: 'vision backend down' });
  const failed = await api.post('/stores/scans/documents', { documents: [doc('scan.pdf', 'application/pdf', scannedPdf)] }).catch((e) => e);
  t.match(failed, { status: 502, type: 'enrichment_failed' });
  t.match(failed.body.error.message, /vision-1.*body\.documents\[0\]\.content page 1/);
  fake.reply = () => ({ delayMs: 60_000, text: 'late' });
  const slow = await api.post('/stores/scans/documents', { documents: [doc('scan.pdf', 'application/pdf', scannedPdf)] }).catch((e) => e);
  t.match(slow, { status: 504, type: 'enrichment_timeout', body: { error: { fix: /SVC_ENRICH_TIMEOUT/ } } });
  await rejectsApi(t, api.get('/stores/scans/documents/scan.pdf'), { status: 404 }, 'nothing was written');
});

t.test('SVC_VISION_MODEL falls back to SVC_ENRICH_MODEL', async (t) => {
  const fake = await startFakeOpenAi(t);
  fake.reply = () => ({ text: 'A stamp reading PAID.' });
  const { api } = await startTestServer(t, { threads: 1, env: { SVC_ENRICH_URL: fake.url, SVC_ENRICH_MODEL: 'enrich-1' } });
  await api.post('/stores', { name: 'fb' });
  await api.post('/stores/fb/documents', { documents: [doc('stamp.png', 'image/png', png())] });
  t.equal(fake.requests[0].body.model, 'enrich-1');
  t.equal((await api.get('/stores/fb/documents/stamp.png?include_text=true')).text, 'A stamp reading PAID.');
});
