// The text of ingested documents sent as `content` {media_type, data (base64)} instead of `text`: a
// PDF's text layer is read locally (pdf.ts); an image, and a PDF page without a text layer, is
// transcribed by the vision model (SVC_VISION_MODEL, else SVC_ENRICH_MODEL). Invariants: every
// document is checked (base64, file signature, readability, need for a vision model) before any
// vision call is made, so a request that is refused costs no outbound call; without a vision model
// an image or scanned page is a 400 whose fix names the variables to set; at most
// MAX_TRANSCRIPTIONS vision calls per request, VISION_CONCURRENCY at a time; the text returned is
// well-formed Unicode with at least one non-space character.
import type { DocumentContent } from '../api-types.js';
import { ApiError } from '../errors.js';
import type { ChatMessage, EnrichClient } from '../llm/index.js';
import { CONTENT_MEDIA_TYPES as MEDIA_TYPES, type MediaType } from './media-types.js';
import { PdfError, type PdfPage, readPdf } from './pdf.js';

export const MAX_TRANSCRIPTIONS = 100;
const VISION_CONCURRENCY = 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SIGNATURES: Record<MediaType, { bytes: number[]; name: string }> = {
  'image/png': { bytes: [0x89, 0x50, 0x4e, 0x47], name: 'a PNG image' },
  'image/jpeg': { bytes: [0xff, 0xd8, 0xff], name: 'a JPEG image' },
  'application/pdf': { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], name: 'a PDF file' },
};
export const VISION_FIX =
  'Set SVC_VISION_MODEL (or SVC_ENRICH_MODEL) on the server to a vision model, with SVC_ENRICH_URL and SVC_ENRICH_API_KEY as its endpoint needs, to transcribe images and scanned pages; or send the document as text.';
const PROMPT =
  'Transcribe all the text in this image exactly, in reading order, as plain text, with paragraphs separated by blank lines. Output only the transcription. If the image holds no text, describe it in one or two sentences.';

/** A piece of text to come: literal, or the transcription of an image. */
type Part = { text: string } | { image: string; mime: string; label: string };

function decode(where: string, c: DocumentContent): Buffer {
  const data = c.data.replace(/[\r\n]/g, '');
  if (data.length % 4 !== 0 || !BASE64.test(data)) {
    throw new ApiError('invalid_request', `${where}.data is not valid base64`, {
      fix: 'Encode the file as standard base64 (RFC 4648, with = padding), e.g. `base64 -w0 file.pdf`.',
    });
  }
  const bytes = Buffer.from(data, 'base64');
  const sig = SIGNATURES[c.media_type];
  if (bytes.length < sig.bytes.length || sig.bytes.some((b, i) => bytes[i] !== b)) {
    throw new ApiError('invalid_request', `${where}.data is not ${sig.name}, as media_type '${c.media_type}' says`, {
      fix: `Send the file's bytes with its media_type: one of ${MEDIA_TYPES.join(', ')}.`,
    });
  }
  return bytes;
}

export class ContentExtractor {
  constructor(private readonly vision?: { client: EnrichClient; model: string }) {}

  /** One line for the startup log. */
  describe(): string {
    return this.vision
      ? `images and scanned pages: model ${this.vision.model} at ${this.vision.client.url}`
      : 'images and scanned pages: refused (no SVC_VISION_MODEL or SVC_ENRICH_MODEL)';
  }

  /** The text of every document: its `text`, or the text of its `content`. */
  async texts(docs: Array<{ text?: string; content?: DocumentContent }>): Promise<string[]> {
    const parts: Part[][] = [];
    for (const [i, d] of docs.entries())
      parts.push(d.content ? await this.parts(`body.documents[${i}].content`, d.content) : [{ text: d.text ?? '' }]);
    const images = parts.flatMap((ps) => ps.filter((p): p is Extract<Part, { image: string }> => 'image' in p));
    if (images.length > 0 && !this.vision) {
      const list = images
        .slice(0, 5)
        .map((p) => p.label)
        .join('; ');
      throw new ApiError(
        'invalid_request',
        `no vision model is configured to transcribe ${images.length === 1 ? 'an image' : `${images.length} images or scanned pages`} (${list}${images.length > 5 ? '; …' : ''})`,
        { fix: VISION_FIX },
      );
    }
    if (images.length > MAX_TRANSCRIPTIONS) {
      throw new ApiError(
        'invalid_request',
        `the request holds ${images.length} images and scanned PDF pages to transcribe, over ${MAX_TRANSCRIPTIONS}`,
        {
          fix: `Send at most ${MAX_TRANSCRIPTIONS} images or scanned pages per request (the client's ingestStream with a smaller batchSize).`,
        },
      );
    }
    const done = new Map<Part, string>();
    let next = 0;
    const worker = async () => {
      while (next < images.length) {
        const p = images[next++];
        done.set(p, await this.transcribe(p));
      }
    };
    await Promise.all(Array.from({ length: Math.min(VISION_CONCURRENCY, images.length) }, worker));
    return parts.map((ps, i) => {
      const text = ps
        .map((p) => ('text' in p ? p.text : done.get(p)!))
        .filter((t) => t.trim())
        .join('\n\n')
        .toWellFormed();
      if (!/\S/.test(text)) {
        throw new ApiError('invalid_request', `body.documents[${i}].content holds no text`, {
          fix: 'Send a file with a text layer, pages that show text, or the document as text.',
        });
      }
      return text;
    });
  }

  private async parts(where: string, c: DocumentContent): Promise<Part[]> {
    const bytes = decode(where, c);
    if (c.media_type !== 'application/pdf')
      return [{ image: c.data.replace(/[\r\n]/g, ''), mime: c.media_type, label: `${where} (${c.media_type})` }];
    let pages: PdfPage[];
    try {
      pages = await readPdf(bytes);
    } catch (err) {
      if (!(err instanceof PdfError)) throw err;
      throw new ApiError('invalid_request', `${where}: ${err.message}`, {
        fix: err.encrypted ? 'Send the PDF without a password (decrypt it first).' : 'Send a valid, complete PDF file.',
      });
    }
    return pages.map((p) =>
      p.image ? { image: p.image.toString('base64'), mime: 'image/png', label: `${where} page ${p.n} (no text layer)` } : { text: p.text },
    );
  }

  private async transcribe(p: { image: string; mime: string; label: string }): Promise<string> {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: PROMPT },
          { type: 'image_url', image_url: { url: `data:${p.mime};base64,${p.image}` } },
        ],
      },
    ];
    const { client, model } = this.vision!;
    return client.chat(model, messages, `transcription of ${p.label}`);
  }
}
