// `npm run docs:errors`: writes docs/errors.md from the error table (src/errors-doc.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorsMarkdown } from '../src/errors-doc.js';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');
fs.writeFileSync(out, errorsMarkdown());
process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
