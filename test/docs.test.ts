// The documentation kept in step with the code: docs/errors.md is exactly what the error table
// generates; docs/configuration.md names every SVC_* variable the source reads or mentions and
// every option of `svc serve`; every relative link of README.md and docs/*.md (and its #anchor)
// points at something that exists.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { errorsMarkdown } from '../src/errors-doc.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

t.test('docs/errors.md is generated from the error table', async (t) => {
  t.equal(read('docs/errors.md'), errorsMarkdown(), 'docs/errors.md differs from the error table: run `npm run docs:errors`');
});

t.test('docs/configuration.md names every SVC_ variable of src/ and every option of svc serve', async (t) => {
  const doc = read('docs/configuration.md');
  const names = new Set<string>();
  for (const f of sourceFiles(path.join(REPO, 'src'))) for (const m of fs.readFileSync(f, 'utf8').matchAll(/SVC_[A-Z_]+/g)) names.add(m[0]);
  t.ok(names.has('SVC_DATA_DIR') && names.has('SVC_MODEL_URI'), 'the scan finds the variables');
  for (const name of [...names].sort()) {
    // A name ending in `_` is a prefix written in the source (SVC_ENRICH_*): some variable must start with it.
    const mentioned = name.endsWith('_') ? doc.includes(name) : new RegExp(`\\b${name}\\b`).test(doc);
    t.ok(mentioned, `docs/configuration.md mentions ${name}`);
  }

  const serve = read('src/cli/serve.ts');
  const options = [...serve.matchAll(/\.(?:option|requiredOption)\(\s*'(?:-\w, )?(--[a-z][a-z-]*)/g)].map((m) => m[1]);
  for (const m of serve.matchAll(/new Option\(\s*'(?:-\w, )?(--[a-z][a-z-]*)/g)) options.push(m[1]);
  t.ok(options.includes('--port') && options.includes('--no-auth'), `the options of svc serve are found: ${options.join(' ')}`);
  const main = read('src/cli/main.ts');
  for (const m of main.matchAll(/\.option\(\s*'(?:-\w, )?(--[a-z][a-z-]*)/g)) options.push(m[1]);
  if (/\.version\(/.test(main)) options.push('--version');
  for (const o of options) t.ok(new RegExp(`${o}(?![a-z-])`).test(doc), `docs/configuration.md mentions ${o}`);
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = m[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Markdown without fenced blocks and inline code, where a bracket is not a link. */
function stripCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

t.test('every relative link of README.md and docs/*.md points at something that exists', async (t) => {
  const pages = [
    'README.md',
    'CHANGELOG.md',
    ...fs
      .readdirSync(path.join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  t.ok(pages.includes('docs/configuration.md') && pages.includes('docs/errors.md'), 'the docs are found');
  let links = 0;
  for (const page of pages) {
    const text = read(page);
    for (const m of stripCode(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      links++;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file ? path.resolve(path.dirname(path.join(REPO, page)), decodeURIComponent(file)) : path.join(REPO, page);
      if (!t.ok(fs.existsSync(resolved), `${page}: ${target} exists`)) continue;
      if (anchor && resolved.endsWith('.md'))
        t.ok(anchors(fs.readFileSync(resolved, 'utf8')).has(anchor), `${page}: ${target} names a heading`);
    }
  }
  t.ok(links > 10, `${links} relative links checked`);
});
