// The hostile-input matrix of test/hostile-input.test.ts: each row is one request a hostile or
// broken client could send, with the status and error type it must get. Rows are sent either with
// fetch (`body` JSON-encoded unless a string or bytes) or, where fetch would refuse or rewrite the
// request (raw paths with '..', bad headers, declared lengths), as exact bytes (`raw`). The store
// `m` exists; `type: null` marks a read that must succeed (and, like every row, write nothing).
import zlib from 'node:zlib';

export interface Row {
  name: string;
  method?: string;
  path?: string;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: { head: string; body?: Buffer | string };
  status: number;
  type: string | null;
}

const bad = (name: string, body: unknown, path = '/stores/m/documents'): Row => ({
  name,
  method: 'POST',
  path,
  body,
  status: 400,
  type: 'invalid_request',
});
const doc = (d: Record<string, unknown>) => ({ documents: [{ id: 'x', text: 'hostile', ...d }] });
const search = (q: Record<string, unknown>) => ({ query: 'x', ...q });
const many = (n: number, f: (i: number) => [string, unknown]) => Object.fromEntries(Array.from({ length: n }, (_, i) => f(i)));
const nested = (depth: number) => `{"query":"x","filter":{"a":${'{"b":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
const head = (method: string, path: string, lines: string[] = []) =>
  `${[`${method} ${path} HTTP/1.1`, 'Host: x', 'Connection: close', ...lines].join('\r\n')}\r\n`;
const json = (method: string, path: string, body: string, lines: string[] = []) => ({
  head: head(method, path, ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, ...lines]),
  body,
});
const bomb = (prefix: string, mb: number) =>
  Buffer.concat([Buffer.from(prefix), Buffer.alloc(mb * 1024 * 1024, 0x61), Buffer.from('"}]}')]);

export function rows(): Row[] {
  const storeNames = ['', ' ', '.', '..', '%2e%2e', 'a/b', '../x', 'A', 'é', 'x'.repeat(65), 'a\u0000b', 'a\\b'];
  const projects = ['..', '../x', '%2e%2e', 'A', 'x'.repeat(65), 'a/b', 'é'];
  const gz = (b: Buffer) => zlib.gzipSync(b);
  return [
    // bodies over the limits and compression bombs
    {
      name: 'declared 100 MB ingest body',
      raw: { head: head('POST', '/v1/stores/m/documents', ['Content-Type: application/json', 'Content-Length: 100000000']) },
      status: 413,
      type: 'document_too_large',
    },
    {
      name: 'gzip bomb (80 MB inflated) on ingest',
      method: 'POST',
      path: '/stores/m/documents',
      body: gz(bomb('{"documents":[{"id":"b","text":"', 80)),
      headers: { 'content-encoding': 'gzip' },
      status: 413,
      type: 'document_too_large',
    },
    {
      name: 'deflate bomb on search',
      method: 'POST',
      path: '/stores/m/search',
      body: zlib.deflateSync(bomb('{"query":"', 8)),
      headers: { 'content-encoding': 'deflate' },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'brotli bomb on create store',
      method: 'POST',
      path: '/stores',
      body: zlib.brotliCompressSync(bomb('{"name":"', 8)),
      headers: { 'content-encoding': 'br' },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: '70 KB body on create store',
      method: 'POST',
      path: '/stores',
      body: { name: 'x'.repeat(70_000) },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'gzip header on a plain body',
      method: 'POST',
      path: '/stores',
      body: '{"name":"x"}',
      headers: { 'content-encoding': 'gzip' },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'unknown Content-Encoding',
      method: 'POST',
      path: '/stores',
      body: '{"name":"x"}',
      headers: { 'content-encoding': 'zstd' },
      status: 415,
      type: 'unsupported_media_type',
    },
    // encodings and syntax
    {
      name: 'invalid UTF-8 bytes',
      method: 'POST',
      path: '/stores',
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'overlong UTF-8 for "/"',
      method: 'POST',
      path: '/stores',
      body: Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('b"}')]),
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'UTF-8 encoded lone surrogate',
      method: 'POST',
      path: '/stores/m/documents',
      body: Buffer.concat([Buffer.from('{"documents":[{"id":"s","text":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}]}')]),
      status: 400,
      type: 'invalid_request',
    },
    bad('lone surrogate escape in text', doc({ text: 'bad \ud800 text' })),
    bad('lone surrogate escape in id', doc({ id: '\udc00' })),
    {
      name: 'invalid percent-encoding in a path',
      method: 'GET',
      path: '/stores/m/documents/%E0%A4%A',
      status: 400,
      type: 'invalid_request',
    },
    { name: '%FF in a path', method: 'DELETE', path: '/stores/m/documents/%FF', status: 400, type: 'invalid_request' },
    bad('truncated JSON', '{"name": ', '/stores'),
    bad('empty body', '', '/stores'),
    bad('NaN literal', '{"query":"x","max_hops":NaN}', '/stores/m/search'),
    bad('JSON null body', 'null', '/stores'),
    bad('JSON array body', '[]', '/stores'),
    bad('200 000 nested arrays', '['.repeat(200_000) + ']'.repeat(200_000), '/stores/m/search'),
    bad('filter nested 5000 deep', nested(5000), '/stores/m/search'),
    bad('nested metadata', doc({ metadata: { a: { b: 1 } } })),
    // prototype keys
    bad('metadata key __proto__', '{"documents":[{"id":"x","text":"x","metadata":{"__proto__":{"polluted":1}}}]}'),
    bad('metadata key constructor', doc({ metadata: { constructor: 'x' } })),
    bad('metadata key prototype', doc({ metadata: { prototype: 1 } })),
    bad('__proto__ field on create store', '{"__proto__":{"polluted":1},"name":"proto"}', '/stores'),
    bad('filter __proto__ object', '{"query":"x","filter":{"__proto__":{"polluted":1}}}', '/stores/m/search'),
    {
      name: 'filter key __proto__ with a string (a read)',
      method: 'POST',
      path: '/stores/m/search',
      body: '{"query":"keep","filter":{"__proto__":"x","constructor":"y"}}',
      status: 200,
      type: null,
    },
    // wrong types
    ...[5, null, ['a'], { n: 1 }, true].map((name) => bad(`store name ${JSON.stringify(name)}`, { name }, '/stores')),
    ...[
      { documents: {} },
      { documents: 'x' },
      { documents: [5] },
      doc({ id: 5 }),
      doc({ text: 5 }),
      doc({ metadata: 'x' }),
      doc({ metadata: [1] }),
      doc({ metadata: { a: null } }),
      doc({ title: 'unknown field' }),
    ].map((b, i) => bad(`ingest wrong type ${i}: ${JSON.stringify(b).slice(0, 50)}`, b)),
    ...[
      { query: 5 },
      search({ max_hops: '3' }),
      search({ max_hops: 2.5 }),
      search({ return_trace: 'yes' }),
      search({ filter: [] }),
      search({ filter: 'x' }),
      search({ max_results: null }),
    ].map((b, i) => bad(`search wrong type ${i}: ${JSON.stringify(b)}`, b, '/stores/m/search')),
    { name: 'limit=abc', method: 'GET', path: '/stores?limit=abc', status: 400, type: 'invalid_request' },
    {
      name: 'include_text=maybe',
      method: 'GET',
      path: '/stores/m/documents/keep?include_text=maybe',
      status: 400,
      type: 'invalid_request',
    },
    // NaN and Infinity
    bad('max_hops 1e999 (Infinity)', '{"query":"x","max_hops":1e999}', '/stores/m/search'),
    bad('metadata -1e999', '{"documents":[{"id":"x","text":"x","metadata":{"n":-1e999}}]}'),
    bad('filter value 1e999', '{"query":"x","filter":{"n":1e999}}', '/stores/m/search'),
    ...['Infinity', '-Infinity', '1e999', 'NaN', '-1', '1e3'].map(
      (v): Row => ({ name: `limit=${v}`, method: 'GET', path: `/stores/m/documents?limit=${v}`, status: 400, type: 'invalid_request' }),
    ),
    // huge queries, filters and documents
    bad('query of 4097 characters', search({ query: 'q'.repeat(4097) }), '/stores/m/search'),
    bad('blank query', search({ query: ' \n\t ' }), '/stores/m/search'),
    bad('filter of 257 pairs', search({ filter: many(257, (i) => [`k${i}`, i]) }), '/stores/m/search'),
    bad('filter $not nested 7000 deep', `{"query":"x","filter":${'{"$not":'.repeat(7000)}{}${'}'.repeat(7000)}}`, '/stores/m/search'),
    bad('filter $and nested 7000 deep', `{"query":"x","filter":${'{"$and":['.repeat(7000)}{}${']}'.repeat(7000)}}`, '/stores/m/search'),
    bad('filter $in of 5000 values', search({ filter: { k: { $in: Array.from({ length: 5000 }, (_, i) => i) } } }), '/stores/m/search'),
    bad('filter key __proto__ with operators', '{"query":"x","filter":{"__proto__":{"$gt":1,"$regex":"."}}}', '/stores/m/search'),
    {
      name: 'filter in a listing, nested 300 deep',
      method: 'GET',
      path: `/stores/m/documents?filter=${encodeURIComponent(`${'{"$not":'.repeat(300)}{}${'}'.repeat(300)}`)}`,
      status: 400,
      type: 'invalid_request',
    },
    bad('filter key of 129 characters', search({ filter: { ['k'.repeat(129)]: 1 } }), '/stores/m/search'),
    bad('filter value of 4097 characters', search({ filter: { k: 'v'.repeat(4097) } }), '/stores/m/search'),
    bad('max_hops 9', search({ max_hops: 9 }), '/stores/m/search'),
    bad('max_results 101', search({ max_results: 101 }), '/stores/m/search'),
    bad('metadata of 65 keys', doc({ metadata: many(65, (i) => [`k${i}`, i]) })),
    bad('metadata value of 4097 characters', doc({ metadata: { k: 'v'.repeat(4097) } })),
    bad('1001 documents', { documents: Array.from({ length: 1001 }, (_, i) => ({ id: `m${i}`, text: 'x' })) }),
    bad('id of 513 bytes', doc({ id: `${'é'.repeat(256)}x` })),
    bad('empty id', doc({ id: '' })),
    bad('id ".."', doc({ id: '..' })),
    bad('duplicate ids', {
      documents: [
        { id: 'd', text: 'a' },
        { id: 'd', text: 'b' },
      ],
    }),
    bad('blank text', doc({ text: ' \n ' })),
    bad('no documents', {}),
    bad('empty document list', { documents: [] }),
    bad('document without text', { documents: [{ id: 'x' }] }),
    bad('empty text', doc({ text: '' })),
    bad('id "."', doc({ id: '.' })),
    // store names, in bodies and in paths, and project names
    ...storeNames.map((name) => bad(`create store named ${JSON.stringify(name).slice(0, 20)}`, { name }, '/stores')),
    ...[
      '/v1/stores/..',
      '/v1/stores/%2e%2e',
      '/v1/stores/..%2F..%2Fetc',
      '/v1/stores/..%5C..',
      '/v1/stores/A',
      `/v1/stores/${'x'.repeat(65)}`,
      '/v1/stores/%00',
    ].map(
      (p): Row => ({
        name: `delete store at raw path ${p.slice(0, 30)}`,
        raw: { head: head('DELETE', p) },
        status: 404,
        type: 'store_not_found',
      }),
    ),
    {
      name: 'ingest into raw path /stores/../documents',
      raw: json('POST', '/v1/stores/%2e%2e/documents', '{"documents":[{"id":"q","text":"xx"}]}'),
      status: 404,
      type: 'store_not_found',
    },
    ...projects.map(
      (p): Row => ({
        name: `X-Svc-Project ${JSON.stringify(p).slice(0, 20)}`,
        method: 'POST',
        path: '/stores',
        body: { name: 'escape' },
        headers: { 'x-svc-project': p },
        status: 400,
        type: 'invalid_request',
      }),
    ),
    // document ids in paths that point nowhere
    ...['%2e%2e', '..%2F..%2Fkeys.json', '%2F', 'x'.repeat(5000), '%00'].map(
      (id): Row => ({
        name: `delete document ${id.slice(0, 20)}`,
        raw: { head: head('DELETE', `/v1/stores/m/documents/${id}`) },
        status: 404,
        type: 'document_not_found',
      }),
    ),
    {
      name: 'get document with a 5000-character id',
      method: 'GET',
      path: `/stores/m/documents/${'y'.repeat(5000)}`,
      status: 404,
      type: 'document_not_found',
    },
    // content types
    ...['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/xml'].map(
      (ct): Row => ({
        name: `Content-Type ${ct}`,
        method: 'POST',
        path: '/stores',
        body: '{"name":"ct"}',
        headers: { 'content-type': ct },
        status: 415,
        type: 'unsupported_media_type',
      }),
    ),
    {
      name: 'no Content-Type',
      raw: { head: head('POST', '/v1/stores', ['Content-Length: 13']), body: '{"name":"ct"}' },
      status: 415,
      type: 'unsupported_media_type',
    },
    // header floods and malformed HTTP
    {
      name: '3000 headers',
      raw: {
        head: head(
          'GET',
          '/v1/stores',
          Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`),
        ),
      },
      status: 431,
      type: 'headers_too_large',
    },
    {
      name: 'one 20 KB header',
      raw: { head: head('GET', '/v1/stores', [`X-Big: ${'b'.repeat(20_000)}`]) },
      status: 431,
      type: 'headers_too_large',
    },
    { name: '20 KB URL', raw: { head: head('GET', `/v1/stores/${'a'.repeat(20_000)}`) }, status: 431, type: 'headers_too_large' },
    {
      name: 'two Content-Length headers',
      raw: json('POST', '/v1/stores', '{"name":"cl"}', ['Content-Length: 14']),
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'Transfer-Encoding and Content-Length',
      raw: {
        head: head('POST', '/v1/stores', ['Content-Type: application/json', 'Transfer-Encoding: chunked', 'Content-Length: 5']),
        body: 'd\r\n{"name":"te"}\r\n0\r\n\r\n',
      },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'bad chunk size',
      raw: {
        head: head('POST', '/v1/stores', ['Content-Type: application/json', 'Transfer-Encoding: chunked']),
        body: 'zz\r\n{"name":"te"}\r\n0\r\n\r\n',
      },
      status: 400,
      type: 'invalid_request',
    },
    { name: 'no Host header (a read)', raw: { head: 'GET /v1/stores HTTP/1.1\r\nConnection: close\r\n' }, status: 200, type: null },
    {
      name: 'Idempotency-Key of 256 characters',
      method: 'POST',
      path: '/stores/m/documents',
      body: doc({}),
      headers: { 'idempotency-key': 'k'.repeat(256) },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'Idempotency-Key with a space',
      method: 'POST',
      path: '/stores/m/documents',
      body: doc({}),
      headers: { 'idempotency-key': 'a b' },
      status: 400,
      type: 'invalid_request',
    },
    {
      name: 'Idempotency-Key in Latin-1',
      raw: json('POST', '/v1/stores/m/documents', '{"documents":[{"id":"q","text":"xx"}]}', ['Idempotency-Key: caf\xe9']),
      status: 400,
      type: 'invalid_request',
    },
    // methods, routes and cursors
    { name: 'PUT a store', method: 'PUT', path: '/stores/m', body: {}, status: 405, type: 'method_not_allowed' },
    { name: 'PUT a document', method: 'PUT', path: '/stores/m/documents/keep', body: {}, status: 405, type: 'method_not_allowed' },
    {
      name: 'PATCH a document with an empty body',
      method: 'PATCH',
      path: '/stores/m/documents/keep',
      body: {},
      status: 400,
      type: 'invalid_request',
    },
    { name: 'POST a document', method: 'POST', path: '/stores/m/documents/keep', body: {}, status: 405, type: 'method_not_allowed' },
    { name: 'DELETE every store', method: 'DELETE', path: '/stores', status: 405, type: 'method_not_allowed' },
    { name: 'unknown route', method: 'POST', path: '/stores/m/reindex', body: {}, status: 404, type: 'route_not_found' },
    { name: 'garbage cursor', method: 'GET', path: '/stores/m/documents?cursor=garbage', status: 400, type: 'invalid_request' },
    {
      name: 'cursor of the store list',
      method: 'GET',
      path: `/stores/m/documents?cursor=${Buffer.from('{"k":"stores","p":["a","b"]}').toString('base64url')}`,
      status: 400,
      type: 'invalid_request',
    },
    { name: 'cursor of 300 characters', method: 'GET', path: `/stores?cursor=${'c'.repeat(300)}`, status: 400, type: 'invalid_request' },
    { name: 'unknown query parameter', method: 'GET', path: '/stores?sort=asc', status: 400, type: 'invalid_request' },
  ];
}
