// The `svc` command. Server-host commands: `serve` and `keys`. Errors print the message and a fix
// on stderr and exit non-zero.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../config.js';
import { registerKeys } from './keys.js';
import { registerServe } from './serve.js';

const program = new Command('svc')
  .description('Document search with multi-hop retrieval')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

registerServe(program);
registerKeys(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const e = err as Error & { fix?: string };
  process.stderr.write(`error: ${e.message}\n`);
  if (e.fix) process.stderr.write(`fix: ${e.fix}\n`);
  process.exit(1);
}
