// A local OpenAI-compatible server for the enrichment tests: real HTTP on 127.0.0.1, port 0,
// POST /v1/chat/completions only. Every request is recorded (headers and JSON body); the reply is
// what `reply` (settable per test) returns for it: a text answer, an HTTP error, a delay longer than
// the server's timeout, or a body that is not JSON. Closed (connections included) at teardown.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
    [k: string]: unknown;
  };
}

export type Reply = { text: string } | { status: number; error: string } | { delayMs: number; text: string } | { raw: string };

export interface FakeOpenAi {
  url: string;
  requests: ChatRequest[];
  reply: (req: ChatRequest) => Reply;
  /** The text parts and image URLs of a request's messages, flattened. */
  texts(req: ChatRequest): string[];
  images(req: ChatRequest): string[];
}

export async function startFakeOpenAi(t: { teardown(fn: () => unknown): void }): Promise<FakeOpenAi> {
  const sockets = new Set<import('node:net').Socket>();
  const fake: FakeOpenAi = {
    url: '',
    requests: [],
    reply: () => ({ text: 'ok' }),
    texts: (req) =>
      req.body.messages.flatMap((m) =>
        typeof m.content === 'string' ? [m.content] : m.content.filter((p) => p.type === 'text').map((p) => p.text ?? ''),
      ),
    images: (req) =>
      req.body.messages.flatMap((m) =>
        typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url ?? ''),
      ),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const rec: ChatRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      fake.requests.push(rec);
      const r = fake.reply(rec);
      const send = (text: string) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${fake.requests.length}`,
            object: 'chat.completion',
            created: 0,
            model: rec.body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      if ('raw' in r) res.writeHead(200, { 'content-type': 'application/json' }).end(r.raw);
      else if ('status' in r)
        res
          .writeHead(r.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: r.error, type: 'test_error' } }));
      else if ('delayMs' in r) {
        const timer = setTimeout(() => send(r.text), r.delayMs);
        res.on('close', () => clearTimeout(timer));
      } else send(r.text);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return fake;
}
