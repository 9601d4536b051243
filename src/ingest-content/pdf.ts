// Reads a PDF locally with unpdf (pdf.js, pure JavaScript): the text layer of every page, and for a
// page without one (a scan) the largest image drawn on it, as PNG, for the vision model.
// Invariants: the input bytes are copied, never transferred or changed; pages come back in order,
// each with either text or an image or neither (a blank page); the document is always destroyed;
// an unreadable or password-protected file is a PdfError with a readable reason.
import { extractImages, extractText, getDocumentProxy } from 'unpdf';
import { encodePng } from './png.js';

export interface PdfPage {
  /** 1-based page number */
  n: number;
  text: string;
  /** PNG of the page's largest image, when the page has no text layer */
  image?: Buffer;
}

export class PdfError extends Error {
  constructor(
    message: string,
    readonly encrypted: boolean,
  ) {
    super(message);
    this.name = 'PdfError';
  }
}

const HAS_TEXT = /[\p{L}\p{N}]/u;

export async function readPdf(bytes: Uint8Array): Promise<PdfPage[]> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      useSystemFonts: false,
      isEvalSupported: false,
      stopAtErrors: false,
    });
  } catch (err) {
    const name = (err as Error)?.name ?? '';
    if (name === 'PasswordException') throw new PdfError('the PDF is password-protected', true);
    throw new PdfError(`the PDF cannot be read (${(err as Error)?.message ?? String(err)})`, false);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const pages: PdfPage[] = [];
    for (let i = 0; i < text.length; i++) {
      const page: PdfPage = { n: i + 1, text: text[i].trim() };
      if (!HAS_TEXT.test(page.text)) {
        page.text = '';
        const images = await extractImages(pdf, i + 1);
        const largest = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
        if (largest) page.image = encodePng(largest.data, largest.width, largest.height, largest.channels);
      }
      pages.push(page);
    }
    return pages;
  } catch (err) {
    if (err instanceof PdfError) throw err;
    throw new PdfError(`the PDF cannot be read (${(err as Error)?.message ?? String(err)})`, false);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
