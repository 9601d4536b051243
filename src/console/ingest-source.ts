// What the ingest page sends: dropped or chosen files and pasted JSON lines, as the documents the
// API takes, read lazily as the ingest pulls them. A .txt or .md file is a text document and a .pdf,
// .png or .jpg file a `content` document (the server extracts its text), each with the file name as
// its id and `path` metadata, as `svc ingest` names files; a .jsonl file, like pasted lines, holds
// one {"id", "text" or "content", "metadata"} object per line (a line without an id gets one from a
// hash of its text, as in the CLI). A bad line stops the ingest with its line number and a fix.
import { type DocumentContent, type DocumentInput, jsonlDocument } from '../client/index.js';

export interface IngestSource {
  /** Documents expected: files, plus the non-blank lines of JSONL. */
  total: number;
  documents: AsyncIterable<DocumentInput>;
  /** Text files skipped because they hold no text, filled in as the iteration passes them. */
  skipped: string[];
}

export const ACCEPT = '.txt,.md,.markdown,.pdf,.png,.jpg,.jpeg,.jsonl';
const TEXT = /\.(txt|md|markdown)$/i;
const MEDIA: Array<[RegExp, DocumentContent['media_type']]> = [
  [/\.pdf$/i, 'application/pdf'],
  [/\.png$/i, 'image/png'],
  [/\.jpe?g$/i, 'image/jpeg'],
];
const JSONL = /\.jsonl$/i;
/** The files of `files` the console cannot ingest. */
export function unsupported(files: File[]): string[] {
  return files.filter((f) => !TEXT.test(f.name) && !JSONL.test(f.name) && !MEDIA.some(([re]) => re.test(f.name))).map((f) => f.name);
}

const lines = (text: string) => text.split(/\r?\n/);
const nonBlank = (text: string) => lines(text).filter((l) => l.trim()).length;

async function* jsonlDocuments(text: string, name: string): AsyncGenerator<DocumentInput> {
  let n = 0;
  for (const line of lines(text)) {
    n++;
    if (line.trim()) yield jsonlDocument(line, `${name}, line ${n}`);
  }
}

/** A file's bytes as base64 (the data URL the browser encodes natively, without its head). */
function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export async function openSource(files: File[], pasted: string): Promise<IngestSource> {
  const jsonlTexts = new Map<File, string>();
  for (const f of files) if (JSONL.test(f.name)) jsonlTexts.set(f, await f.text());
  const total = files.length - jsonlTexts.size + [...jsonlTexts.values()].reduce((n, t) => n + nonBlank(t), 0) + nonBlank(pasted);
  const skipped: string[] = [];
  async function* documents(): AsyncGenerator<DocumentInput> {
    for (const file of files) {
      const jsonl = jsonlTexts.get(file);
      const media = MEDIA.find(([re]) => re.test(file.name))?.[1];
      if (jsonl !== undefined) yield* jsonlDocuments(jsonl, file.name);
      else if (media) yield { id: file.name, content: { media_type: media, data: await base64(file) }, metadata: { path: file.name } };
      else {
        const text = (await file.text()).replace(/^\uFEFF/, '');
        if (/\S/.test(text)) yield { id: file.name, text, metadata: { path: file.name } };
        else skipped.push(file.name);
      }
    }
    yield* jsonlDocuments(pasted, 'pasted JSONL');
  }
  return { total, documents: documents(), skipped };
}
