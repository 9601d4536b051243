// The web console's files (built by `npm run build:console` into dist/console/ and shipped in the
// package), served beside /v1 without a credential: the page holds no data and asks for the API key
// itself; every API call it makes is authenticated as any other. Invariants:
// - GET and HEAD only; any other method falls through to route_not_found.
// - `/` and `/console` redirect to `/console/` (a relative Location, so a proxy's path prefix stays).
// - A path under /console/assets/ is a built file or 404 `route_not_found`, never the page (a stale
//   hashed name must fail, not load HTML as a script); its name carries its content hash, so it is
//   cached for a year, immutable.
// - Any other path under /console/ is index.html (the console routes in the browser), never cached,
//   with a <base> pointing at /console/ relative to the path, and a Content-Security-Policy that
//   lets the page load and call nothing but this origin (no script, style or font from the network).
import fs from 'node:fs/promises';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { PACKAGE_ROOT } from '../config.js';
import { ApiError } from '../errors.js';

export const CONSOLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'console');

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const BASE_MARK = '<base href="./">';

/** The relative href from a path under /console/ back to /console/ (`./` for /console/ itself). */
function baseHref(pathUnderConsole: string): string {
  const depth = pathUnderConsole.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

function notBuilt(): ApiError {
  return new ApiError('route_not_found', `the web console is not built (no ${path.join(CONSOLE_DIR, 'index.html')})`, {
    fix: "Build it with 'npm run build:console' in the svc source folder (an installed package ships it built).",
  });
}

export function consoleRouter(dir: string = CONSOLE_DIR): Router {
  const router = express.Router({ strict: true });
  router.use('/console', (_req: Request, res: Response, next: NextFunction) => {
    res.locals.route = '/console';
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/', (_req: Request, res: Response) => {
    res.locals.route = '/';
    res.redirect(302, 'console/');
  });
  router.get('/console', (_req: Request, res: Response) => res.redirect(302, 'console/'));
  router.use(
    '/console/assets',
    express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', redirect: false, dotfiles: 'ignore' }),
  );
  router.get(/^\/console\/assets\//, (req: Request, _res: Response, next: NextFunction) =>
    next(new ApiError('route_not_found', `no console file ${req.path}`, { fix: 'Reload the console: its files were rebuilt.' })),
  );
  router.get(/^\/console\//, async (req: Request, res: Response, next: NextFunction) => {
    let html: string;
    try {
      html = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
    } catch {
      next(notBuilt());
      return;
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.send(html.replace(BASE_MARK, `<base href="${baseHref(req.path.slice('/console/'.length))}">`));
  });
  return router;
}
