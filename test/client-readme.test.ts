// The two quick starts of README.md (sections '## Client library' and '## CLI'), taken from the
// README itself so they cannot drift: the library one runs as a user's ES module importing the
// package by name ('svc-search', resolved through the package's "exports" to dist/), the CLI one as a
// bash script with `svc` being bin/svc.js. Both talk to a real server whose URL replaces the default
// address written in the README, each works in a store of its own and deletes it at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { assertBuilt, BIN, cliEnv } from './helpers/cli.js';
import { REPO, startTestServer, tempDir } from './helpers/server.js';

assertBuilt();
const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
const DEFAULT_URL = 'http://127.0.0.1:8080/v1';

/** The first fenced block of `lang` in the section titled `title`. */
function snippet(title: string, lang: string): string {
  const section = README.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  if (!section) throw new Error(`README.md has no section '## ${title}'`);
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!m) throw new Error(`section '${title}' has no \`\`\`${lang} block`);
  return m[1];
}

function run(
  cmd: string,
  args: string[],
  input: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

const { server } = await startTestServer(t, { threads: 1 });

t.test('the library quick start runs as written', async (t) => {
  const code = snippet('Client library', 'js');
  t.ok(code.split('\n').filter((l) => l.trim()).length <= 12, 'about ten lines');
  t.match(code, /from 'svc-search'/, 'imports the package by name');
  // Evaluated with the repository as its base, so 'svc-search' resolves by the package's own name.
  const r = await run(process.execPath, ['--input-type=module'], code, { cwd: REPO, env: cliEnv({ SVC_BASE_URL: server.url }) });
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^hop 1 {2}\d+\.\d\d {2}\S+: /m, 'passages with hop and score');
  t.match(r.out, /confidence \d\.\d\d, \d hops?, [\d.]+ ms\n$/);
  t.match(code, /getOrCreate\('quickstart-client'\)/, 'a store of its own');
  t.equal((await fetch(`${server.url}/stores/quickstart-client`)).status, 404, 'the last line deleted the store');
});

t.test('the CLI quick start runs as written', async (t) => {
  const script = snippet('CLI', 'sh');
  t.ok(script.split('\n').filter((l) => l.trim()).length <= 12, 'about ten lines');
  t.ok(script.includes(DEFAULT_URL), 'it names the default server address');
  const cwd = tempDir(t, 'svc-readme-');
  const prelude = `set -euo pipefail\nsvc() { "${process.execPath}" "${BIN}" "$@"; }\n`;
  const r = await run('bash', [], prelude + script.replaceAll(DEFAULT_URL, server.url), { cwd, env: cliEnv({}) });
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^ingested 2 documents into 'quickstart-cli'/m);
  t.match(r.out, /^hop 1\n/m);
  t.match(r.out, /^confidence \d\.\d\d · \d hops? used/m);
  t.match(r.out, /^trace:\n/m);
  t.match(r.out, /Devotion is a 1929 Italian silent film directed by Guido Brignone\.\n/, 'docs get --text');
  t.match(r.out, /^deleted store 'quickstart-cli'$/m);
  t.equal((await fetch(`${server.url}/stores/quickstart-cli`)).status, 404, 'it deleted its store');
  t.notOk(fs.existsSync(path.join(cwd, 'films')), 'and the files it wrote');
});

t.test("the curl session keeps the server's logs out of what curl prints, and cleans up", async (t) => {
  const script = snippet('A session with curl', 'sh');
  t.match(script, /^npx svc serve --no-auth > \S+ 2>&1 &/m, 'the server logs to a file');
  t.match(script, /-XDELETE \$B\/stores\/quickstart-curl\n/, 'the store is deleted at the end');
});
