// The `svc` command. Server-host commands (`serve`, `keys`) work on the local data dir; client
// commands (`stores`, `docs`, `ingest`/`import`, `export`, `search`, and `mcp`, which serves them to
// MCP clients over stdio) talk to a server through SVC_BASE_URL and SVC_API_KEY. Errors print the
// message and a fix on stderr and exit non-zero.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../config.js';
import { registerCompact } from './compact.js';
import { registerDocs } from './docs.js';
import { registerExport } from './export.js';
import { registerIngest } from './ingest.js';
import { registerKeys } from './keys.js';
import { registerMcp } from './mcp.js';
import { registerSearch } from './search.js';
import { registerServe } from './serve.js';
import { registerStores } from './stores.js';
import { registerTrain } from './train.js';

const program = new Command('svc')
  .description('Document search with multi-hop retrieval')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

registerServe(program);
registerKeys(program);
registerStores(program);
registerDocs(program);
registerIngest(program);
registerExport(program);
registerCompact(program);
registerSearch(program);
registerMcp(program);
registerTrain(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const e = err as Error & { fix?: string };
  process.stderr.write(`error: ${e.message}\n`);
  if (e.fix) process.stderr.write(`fix: ${e.fix}\n`);
  process.exit(1);
}
