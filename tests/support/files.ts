import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { unzipSync, zipSync } from 'fflate';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { pngOfText } from './bitmap-text';

/** Real files for the knowledge tests, made with the libraries people's own tools use. */

/** One page per entry, each holding that text in lines of Helvetica. */
export async function pdfWithPages(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([595, 842]);
    text.split('\n').forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 16, size: 11, font }));
  }
  return doc.save();
}

/** A page with drawing but no text, as a scanner makes (minus the picture). */
export async function pdfWithoutText(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawRectangle({ x: 50, y: 50, width: 200, height: 100 });
  return doc.save();
}

/** A PDF whose standard security handler asks for a user password (RC4, revision 2). */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Secret plans', { x: 50, y: 700 });
  const { context } = doc;
  context.trailerInfo.Encrypt = context.register(
    context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFHexString.of('0f'.repeat(32)),
      U: PDFHexString.of('a1'.repeat(32)),
      P: -44,
    }),
  );
  context.trailerInfo.ID = context.obj([PDFHexString.of('01'.repeat(16)), PDFHexString.of('01'.repeat(16))]);
  return doc.save({ useObjectStreams: false });
}

/** Starts like a PDF, then is nothing of the sort. */
export const corruptPdf = (): Uint8Array => Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\ngarbage');

/** `blocks`: `# Heading` lines become Word headings, anything else a paragraph. */
export async function docxWith(blocks: string[]): Promise<Uint8Array> {
  const children = blocks.map((block) =>
    block.startsWith('# ')
      ? new Paragraph({ text: block.slice(2), heading: HeadingLevel.HEADING_1 })
      : new Paragraph({ text: block }),
  );
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

/** A valid DOCX with one more entry: megabytes of zeros that deflate to almost nothing. */
export async function zipBombDocx(inflatedBytes = 40 * 1024 * 1024): Promise<Uint8Array> {
  const entries = unzipSync(await docxWith(['Looks harmless']));
  entries['word/media/padding.bin'] = new Uint8Array(inflatedBytes);
  return zipSync(entries, { level: 9 });
}

export function png(width = 4, height = 3): Uint8Array {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
}

/** Scanned pages: no text layer, each only a picture of its lines (capitals) across the page. */
export async function scannedPdf(...pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const lines of pages) {
    const image = await doc.embedPng(pngOfText(lines));
    const page = doc.addPage([595, 842]);
    page.drawImage(image, { x: 20, y: 842 - 20 - (image.height * 555) / image.width, width: 555 });
  }
  return doc.save();
}
