// The web console's files as the server serves them (src/api/console-route.ts), with auth on: `/`
// and `/console` redirect to `/console/`; every path under /console/ but assets is index.html
// (no-cache, a CSP allowing only this origin, a <base> back to /console/ for the path's depth);
// built assets have their content type and are cached immutable; a missing asset is 404
// route_not_found, not the page; none of it needs a key while the API still does; other methods
// and the rest of the URL space keep the API's errors; an unbuilt console is a 404 with a fix.
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import t from 'tap';
import { CONSOLE_DIR, consoleRouter } from '../src/api/console-route.js';
import { startTestServer, tempDir } from './helpers/server.js';

const { server } = await startTestServer(t, { noAuth: false, threads: 1 });
const origin = server.url.replace(/\/v1$/, '');
const get = (p: string, init: RequestInit = {}) => fetch(origin + p, { redirect: 'manual', ...init });
const html = fs.readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8');
const assets = fs.readdirSync(path.join(CONSOLE_DIR, 'assets'));
const script = assets.find((f) => /^app-[A-Z0-9]+\.js$/.test(f));
const style = assets.find((f) => /^console-[A-Z0-9]+\.css$/.test(f));

t.test('the build wrote index.html naming its hashed assets', async (t) => {
  t.ok(script && style, `assets: ${assets.join(', ')}`);
  t.match(html, `assets/${script}`);
  t.match(html, `assets/${style}`);
  t.notMatch(html, /https?:\/\//, 'the page names no URL of the network');
});

t.test('/ and /console redirect to /console/', async (t) => {
  for (const p of ['/', '/console']) {
    const r = await get(p);
    t.equal(r.status, 302, p);
    t.equal(r.headers.get('location'), 'console/', 'relative, so a proxy path prefix is kept');
  }
});

t.test('any page under /console/ is index.html, with no key', async (t) => {
  for (const [p, base] of [
    ['/console/', './'],
    ['/console/stores/wiki', '../'],
    ['/console/stores/wiki/search?q=who&max_hops=2', '../../'],
    ['/console/stores/wiki/documents/a%2Fb', '../../../'],
  ]) {
    const r = await get(p);
    t.equal(r.status, 200, p);
    t.match(r.headers.get('content-type'), /^text\/html; charset=utf-8/);
    t.equal(r.headers.get('cache-control'), 'no-cache');
    t.match(r.headers.get('content-security-policy'), /default-src 'none'.*script-src 'self'.*connect-src 'self'/);
    t.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const body = await r.text();
    t.match(body, `<base href="${base}">`, `${p}: base ${base}`);
    t.match(body, `assets/${script}`);
  }
  const head = await get('/console/stores', { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD');
});

t.test('assets: content type, immutable caching; a missing one is 404, never the page', async (t) => {
  const js = await get(`/console/assets/${script}`);
  t.equal(js.status, 200);
  t.match(js.headers.get('content-type'), /^text\/javascript/);
  t.match(js.headers.get('cache-control'), /max-age=31536000.*immutable/);
  t.equal((await js.text()).length, fs.statSync(path.join(CONSOLE_DIR, 'assets', script!)).size);
  const css = await get(`/console/assets/${style}`);
  t.match(css.headers.get('content-type'), /^text\/css/);
  for (const p of [
    '/console/assets/app-OLD.js',
    '/console/assets/',

    '/console/assets/%2e%2e/%2e%2e/package.json',
  ]) {
    const r = await get(p);
    t.equal(r.status, 404, p);
    t.equal(((await r.json()) as { error: { type: string } }).error.type, 'route_not_found', p);
  }
});

t.test('the API stays behind its key; other methods and paths keep the API errors', async (t) => {
  const stores = await get('/v1/stores');
  t.equal(stores.status, 401);
  t.equal(((await stores.json()) as { error: { type: string } }).error.type, 'unauthorized');
  for (const [method, p] of [
    ['POST', '/console/'],
    ['DELETE', '/console/stores/x'],
    ['GET', '/consoles'],
    ['GET', '/v2/console/'],
  ]) {
    const r = await get(p, { method });
    t.equal(r.status, 404, `${method} ${p}`);
    t.equal(((await r.json()) as { error: { type: string } }).error.type, 'route_not_found');
  }
});

t.test('a console that was not built: 404 whose fix says how to build it', async (t) => {
  const app = express();
  app.use(consoleRouter(tempDir(t)));
  app.use((err: { status: number; body(): unknown }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
    res.status(err.status).json(err.body()),
  );
  const listening = app.listen(0, '127.0.0.1');
  t.teardown(() => listening.close());
  await new Promise((r) => listening.once('listening', r));
  const { port } = listening.address() as { port: number };
  const r = await fetch(`http://127.0.0.1:${port}/console/`);
  t.equal(r.status, 404);
  const body = (await r.json()) as { error: { type: string; fix: string } };
  t.equal(body.error.type, 'route_not_found');
  t.match(body.error.fix, /npm run build:console/);
});
