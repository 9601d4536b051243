// One server per data dir. A second `svc serve` on a data dir in use exits 1 with the owner's pid
// and a fix, writes nothing there, and the first server goes on serving reads and writes. A stale
// lock (its server was killed) is taken over, and when several servers start at once on a stale
// lock, exactly one wins (the race is run many times with contenders released together). A lock
// file with no readable pid is stale too.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { failingChild, startChild } from './helpers/child-server.js';
import { REPO, tempDir } from './helpers/server.js';
import { snapshot } from './helpers/store-check.js';

t.test('a second server on a data dir in use is refused and changes nothing', async (t) => {
  const dataDir = tempDir(t);
  const first = await startChild(dataDir);
  t.teardown(() => first.kill());
  await first.api.post('/stores', { name: 'busy' });
  await first.api.post('/stores/busy/documents', { documents: [{ id: 'a', text: 'Owned by the first server.' }] });
  const before = snapshot(dataDir);
  const second = await failingChild(dataDir);
  t.equal(second.code, 1, 'exit status 1');
  t.notOk(second.started, 'never listened');
  t.match(second.stderr, new RegExp(`error: data dir is in use by another svc server \\(pid ${first.child.pid}, lock .*\\.svc\\.lock\\)`));
  t.match(second.stderr, /fix: Stop the other server, or give this one another SVC_DATA_DIR/);
  t.same(snapshot(dataDir), before, 'the data dir is byte for byte as it was');
  await first.api.post('/stores/busy/documents', { documents: [{ id: 'b', text: 'Still writable.' }] });
  t.equal((await first.api.get('/stores/busy')).n_docs, 2, 'the first server goes on');
  await first.stop();
});

t.test('a stale lock is taken over; one with no readable pid too', async (t) => {
  for (const content of [String(spawnSync('true').pid), '', 'garbage\n']) {
    const dataDir = tempDir(t);
    fs.writeFileSync(path.join(dataDir, '.svc.lock'), content);
    const s = await startChild(dataDir);
    t.match(
      fs.readFileSync(path.join(dataDir, '.svc.lock'), 'utf8'),
      new RegExp(`^${s.child.pid} `),
      `lock ${JSON.stringify(content)} taken over`,
    );
    await s.stop();
    t.notOk(fs.existsSync(path.join(dataDir, '.svc.lock')), 'released on a clean stop');
  }
});

t.test('servers starting at once on a stale lock: exactly one wins', async (t) => {
  const racer = path.join(REPO, 'test', 'helpers', 'lock-racer.mjs');
  const results: string[] = [];
  for (let round = 0; round < 10; round++) {
    const dataDir = tempDir(t);
    fs.writeFileSync(path.join(dataDir, '.svc.lock'), String(spawnSync('true').pid));
    const go = path.join(dataDir, 'go');
    const kids = Array.from({ length: 4 }, () => spawn(process.execPath, [racer, dataDir, go], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const outs = kids.map(
      (k) =>
        new Promise<string>((resolve) => {
          let out = '';
          k.stdout!.on('data', (d) => (out += d)).on('end', () => resolve(out.trim()));
          k.stdout!.on('data', () => out.includes('\n') && resolve(out.trim()));
        }),
    );
    await new Promise((r) => setTimeout(r, 300));
    fs.writeFileSync(go, '');
    const got = await Promise.all(outs);
    for (const k of kids) k.stdin!.end();
    await Promise.all(kids.map((k) => new Promise((r) => (k.exitCode === null ? k.once('exit', r) : r(null)))));
    results.push(got.sort().join(','));
  }
  const bad = results.filter((r) => r.split(',').filter((x) => x === 'won').length !== 1 || !r.includes('lost DataDirLockedError'));
  t.same(bad, [], `every one of ${results.length} rounds has one winner and the others refused`);
});
