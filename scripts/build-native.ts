// `npm run build:native` (part of `npm run build`, so of every install from source): builds
// native/pages.node, the helper that gives free pages of the engine's memory back to the system
// (src/engine/runtime/page-discard.ts) and shrinks an idle thread's heap (collect.ts), with
// node-gyp: npm's own (npm_config_node_gyp, which npm sets for its scripts), else one on the PATH.
// Needs python3, make and a C++ compiler. When the build fails, it says so and exits 0: the engine
// then gives memory back by moving its blocks instead (MEMORY.relocate), as it did before the
// helper, and `svc serve` says which it uses.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'native');
const gyp = process.env.npm_config_node_gyp;
const [cmd, args] = gyp ? [process.execPath, [gyp, 'rebuild']] : ['node-gyp', ['rebuild']];
const run = spawnSync(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
if (run.status === 0) {
  console.log('build:native: native/build/Release/pages.node built');
} else {
  const why = run.error?.message ?? (run.stderr || run.stdout).trim().split('\n').slice(-5).join('\n');
  console.warn(`build:native: not built (${why}); the engine gives free memory back by moving its blocks instead`);
}
