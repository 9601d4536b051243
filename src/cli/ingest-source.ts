// What `svc ingest` reads: a .jsonl file (one DocumentInput per line), a folder of .txt/.md files
// (recursively; hidden entries skipped) or one such file. The documents come out in the same order
// with the same ids on every run (folders are walked in sorted order; a file's id is its path
// relative to the folder; a JSONL line without an id gets one from a hash of its text), which is what
// lets a re-run cut the same batches and resume. Files are read one at a time, as the ingest pulls.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type DocumentInput, InvalidRequestError, jsonlDocument } from '../client/index.js';
import { CliError } from './cli-error.js';

export interface IngestSource {
  /** e.g. "folder docs (12 files)". */
  description: string;
  /** Documents expected (for progress; an estimate for JSONL: its non-blank lines). */
  total: number;
  documents: AsyncIterable<DocumentInput>;
  /** Files skipped because they hold no text, filled in as the iteration passes them. */
  skipped: string[];
}

const TEXT_FILE = /\.(txt|md)$/i;

export async function openSource(p: string): Promise<IngestSource> {
  const stat = await fs.stat(p).catch(() => undefined);
  if (!stat) throw new CliError(`no such file or folder: ${p}`, 'Give a .jsonl file, or a folder of .txt/.md files.');
  if (stat.isDirectory()) return folderSource(p);
  if (/\.jsonl$/i.test(p)) return jsonlSource(p);
  if (TEXT_FILE.test(p)) return filesSource([{ file: p, id: path.basename(p) }], `file ${p}`);
  throw new CliError(
    `'${p}' is not a .jsonl, .txt or .md file`,
    'Give a .jsonl file (one {"id","text","metadata"} object per line), or a folder of .txt/.md files.',
  );
}

async function walk(root: string, rel = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(root, r)));
    else if ((e.isFile() || e.isSymbolicLink()) && TEXT_FILE.test(e.name)) out.push(r);
  }
  return out;
}

async function folderSource(dir: string): Promise<IngestSource> {
  const files = await walk(dir);
  if (files.length === 0)
    throw new CliError(`no .txt or .md files in ${dir}`, 'Give a folder holding .txt/.md files (searched recursively), or a .jsonl file.');
  return filesSource(
    files.map((rel) => ({ file: path.join(dir, rel), id: rel })),
    `folder ${dir} (${files.length} file${files.length === 1 ? '' : 's'})`,
  );
}

function filesSource(files: Array<{ file: string; id: string }>, description: string): IngestSource {
  const skipped: string[] = [];
  async function* documents(): AsyncGenerator<DocumentInput> {
    for (const { file, id } of files) {
      const text = (await readText(file)).replace(/^\uFEFF/, '');
      if (!/\S/.test(text)) {
        skipped.push(id);
        continue;
      }
      yield { id, text, metadata: { path: id } };
    }
  }
  return { description, total: files.length, documents: documents(), skipped };
}

async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'Check that it is a readable file, or move it out of the folder.',
    );
  }
}

async function countLines(file: string): Promise<number> {
  let n = 0;
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line.trim()) n++;
  return n;
}

async function jsonlSource(file: string): Promise<IngestSource> {
  const total = await countLines(file);
  async function* documents(): AsyncGenerator<DocumentInput> {
    const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let n = 0;
    try {
      for await (const line of rl) {
        n++;
        if (!line.trim()) continue;
        yield await parseLine(line, `${file}:${n}`);
      }
    } finally {
      rl.close();
    }
  }
  return { description: `file ${file} (${total} line${total === 1 ? '' : 's'})`, total, documents: documents(), skipped: [] };
}

/** A line's document; a bad line stops the ingest as the CLI's own error, with the fix. */
async function parseLine(line: string, where: string): Promise<DocumentInput> {
  try {
    return await jsonlDocument(line, where);
  } catch (err) {
    if (err instanceof InvalidRequestError) throw new CliError(err.message, err.fix);
    throw err;
  }
}
