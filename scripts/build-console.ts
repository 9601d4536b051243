// `npm run build:console` (part of `npm run build`, so of every install from source): bundles the
// web console of src/console/ with esbuild into dist/console/: assets/app-<hash>.js (the pages and the
// client, minified, for browsers of 2022 on) and assets/console-<hash>.css, and index.html naming
// them. Hashed names let the server cache assets for good; the folder is emptied first, so no stale
// asset ships. Nothing is fetched from the network at build or at run time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src', 'console');
const out = path.join(root, 'dist', 'console');

fs.rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { app: path.join(src, 'main.ts'), console: path.join(src, 'console.css') },
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
let html = fs.readFileSync(path.join(src, 'index.html'), 'utf8');
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const name = path.basename(file);
  const plain = name.replace(/-[A-Z0-9]+(\.\w+)$/, '$1');
  html = html.replace(`assets/${plain}`, `assets/${name}`);
  process.stdout.write(`dist/console/assets/${name}: ${(meta.bytes / 1024).toFixed(1)} KB\n`);
}
fs.writeFileSync(path.join(out, 'index.html'), html);
