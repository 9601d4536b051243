// The package as a user installs it: `npm pack`, the tarball installed into an empty folder, then
// `npx svc serve --no-auth` until /v1/health answers 200. Nothing is compiled at install or start
// (the tarball ships the built JavaScript, kernels, model and web console; no TypeScript source), the
// installed server serves the console's page and assets, and the start writes nothing into the
// installed package. How long the start took is printed (a figure for the closing note, not a timed
// assertion). Installs from the npm cache where it can.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { REPO, tempDir } from './helpers/server.js';

const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_loglevel: 'error' } });

/** Every file under `dir` with its modification time. */
function snapshot(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) {
      const p = path.join(e.parentPath, e.name);
      out.set(p, fs.statSync(p).mtimeMs);
    }
  return out;
}

t.test('npm pack, install the tarball into an empty folder, npx svc serve --no-auth', { timeout: 600_000 }, async (t) => {
  const work = tempDir(t, 'svc-pack-');
  const { stdout } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO);
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed.files.map((f) => f.path);
  t.ok(files.includes('build/kernels.wasm'), 'the built kernels');
  t.ok(files.includes('dist/cli/main.js') && files.includes('dist/client/index.d.ts'), 'the built JavaScript and types');
  t.ok(files.includes('models/DEFAULT') && files.some((f) => f.endsWith('manifest.json')), 'the default model');
  t.ok(files.includes('LICENSE'));
  const consoleAssets = files.filter((f) => /^dist\/console\/assets\/(app-[A-Z0-9]+\.js|console-[A-Z0-9]+\.css)$/.test(f));
  t.ok(files.includes('dist/console/index.html') && consoleAssets.length === 2, `the built web console (${consoleAssets.join(', ')})`);
  t.same(
    files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')),
    [],
    'no TypeScript source: nothing to compile',
  );
  t.same(
    files.filter((f) => /^(test|bench|src|assembly)\//.test(f)),
    [],
    'no tests, benches or sources',
  );

  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name": "app", "private": true}');
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed.filename)], app);
  const installed = path.join(app, 'node_modules', 'svc-search');
  const before = snapshot(installed);

  const dataDir = tempDir(t, 'svc-pack-data-');
  const started = performance.now();
  const child = spawn('npx', ['--no-install', 'svc', 'serve', '--no-auth', '--port', '0'], {
    cwd: app,
    env: { ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group: npx runs the server as a child of its own, and both must go at the end
    detached: true,
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  t.teardown(() => group('SIGKILL'));
  let out = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b;
  });
  child.stderr.on('data', (b: Buffer) => {
    out += b;
  });
  let url: string | undefined;
  let healthyMs: number | undefined;
  while (healthyMs === undefined && performance.now() - started < 120_000 && child.exitCode === null) {
    url ??= /API at (http:\/\/\S+\/v1)/.exec(out)?.[1];
    if (url) {
      const r = await fetch(`${url}/health`).catch(() => undefined);
      if (r?.status === 200) healthyMs = performance.now() - started;
    }
    if (healthyMs === undefined) await new Promise((r) => setTimeout(r, 20));
  }
  t.ok(healthyMs !== undefined, `healthy (output: ${out.slice(0, 400)})`);
  t.comment(`npx svc serve --no-auth: healthy ${((healthyMs ?? Number.NaN) / 1000).toFixed(2)} s after the start`);
  const store = await fetch(`${url}/stores`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"s"}' });
  t.equal(store.status, 201, 'the installed server serves the API');
  const page = await fetch(url!.replace(/\/v1$/, '/console/stores/s/search?q=x'));
  const html = await page.text();
  t.equal(page.status, 200, 'and the console');
  t.match(out, `console at ${url!.replace(/\/v1$/, '/console/')}`, 'whose URL the startup line prints');
  for (const asset of consoleAssets) {
    t.ok(html.includes(asset.slice('dist/console/'.length)), `the page names ${asset}`);
    t.equal((await fetch(url!.replace(/\/v1$/, `/console/${asset.slice('dist/console/'.length)}`))).status, 200, `${asset} is served`);
  }
  const after = snapshot(installed);
  t.same(
    [...after].filter(([p, m]) => before.get(p) !== m).map(([p]) => path.relative(installed, p)),
    [],
    'the start wrote nothing into the package (compiled nothing)',
  );
  const exited = new Promise((r) => child.once('exit', r));
  group('SIGTERM');
  await exited;
});
