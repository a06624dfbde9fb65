import { afterAll, describe, expect, it } from 'vitest';
import { pdfWithPages, scannedPdf } from '../../../../tests/support/files';
import { docbookXhtml, latex2html, sitePage } from '../../../../tests/support/html-documents';
import { PDFDocument } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { detectType } from './detect-type';
import { ocrPages } from './extract-ocr';
import { createExtractor, DEFAULT_EXTRACTION_LIMITS, type ExtractionOutcome } from './extraction-worker';
import type { DocumentFormat } from './file-formats';

/** Real-world shapes of knowledge files (issue 22): whole HTML documents minus their chrome, scanned PDFs. */
// At the lower nice value alone, as the test app reads files: the suite keeps every core busy (decision 0078).
const extractor = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, priority: 'low' });
afterAll(() => extractor.close());

const bytes = (s: string) => new TextEncoder().encode(s);

async function read(content: Uint8Array, format: DocumentFormat) {
  const outcome: ExtractionOutcome = await extractor.extract({ bytes: content, format });
  if (!outcome.ok) throw new Error(`extraction failed: ${outcome.error} ${outcome.detail ?? ''}`);
  return { text: outcome.chunks.map((c) => c.text).join('\n\n'), chunks: outcome.chunks, notice: outcome.notice };
}

describe('HTML documents', () => {
  it('accepts XHTML with an XML declaration and fragments opening with a list or a table', async () => {
    expect(await detectType(bytes(docbookXhtml('x')), 'frobnicate.html')).toMatchObject({ mediaType: 'text/html' });
    expect(await detectType(bytes(docbookXhtml('x')), 'frobnicate.xhtml')).toMatchObject({ mediaType: 'text/html' });
    expect(await detectType(bytes('<ul><li>One</li></ul>'), 'list.html')).toMatchObject({ mediaType: 'text/html' });
    expect(await detectType(bytes('<table><tr><td>1</td></tr></table>'), 't.htm')).toMatchObject({
      mediaType: 'text/html',
    });
    // XML that is not HTML, under an HTML name, is still refused.
    await expect(detectType(bytes('<?xml version="1.0"?><note>hi</note>'), 'note.html')).rejects.toThrow(
      /not supported/,
    );
  });

  it('keeps a DocBook manual page whole, without its navigation header and footer', async () => {
    const { text, notice } = await read(bytes(docbookXhtml('Sets how hard the widgets are frobbed.')), 'html');
    expect(text).toContain('## Options');
    expect(text).toContain('frobnicate — adjust the widgets');
    expect(text).toContain('Sets how hard the widgets are frobbed.');
    expect(text).not.toMatch(/Prev|Next|Home/);
    expect(notice).toBeNull();
  });

  it('reads a LaTeX2HTML page: content, table rows and footnotes, not its navigation panels', async () => {
    const sentences = {
      body: 'The fit command fits a user-supplied expression to a set of data points.',
      cell: 'names the parameters that are adjusted',
      footnote: 'Marquardt-Levenberg is the algorithm used by the fit command.',
    };
    const { text, chunks } = await read(bytes(latex2html(sentences)), 'html');
    for (const sentence of Object.values(sentences)) expect(text).toContain(sentence);
    expect(text).toContain('via | names the parameters');
    expect(text).toContain('#### Footnotes');
    expect(text).not.toMatch(/Previous|Beginner's guide/);
    expect(chunks.find((c) => c.text.includes(sentences.body))?.section).toBe('Fit');
  });

  it('drops page landmarks but keeps an article’s own header', async () => {
    const { text } = await read(bytes(sitePage('Open the vents when it is warmer than 25 degrees.')), 'html');
    expect(text).toBe('# Heating the greenhouse\n\nOpen the vents when it is warmer than 25 degrees.');
  });

  it('reads fragments, keeps preformatted lines, and keeps a page of nothing but links rather than emptying it', async () => {
    const code = await read(bytes('<pre>$ cargo new docs --lib\n$ cd docs</pre><p>Then build it.</p>'), 'html');
    expect(code.text).toBe('$ cargo new docs --lib\n$ cd docs\n\nThen build it.');
    const list = await read(bytes('<ul><li>Water the ferns on Mondays.</li><li>Feed the fish.</li></ul>'), 'html');
    expect(list.text).toBe('- Water the ferns on Mondays.\n\n- Feed the fish.');
    const table = await read(
      bytes('<table><tr><th>Plant</th><th>Water</th></tr><tr><td>Fern</td><td>Weekly</td></tr></table>'),
      'html',
    );
    expect(table.text).toBe('Plant | Water\n\nFern | Weekly');
    const bookmarks = await read(
      bytes('<dl><dt><a href="https://a.example">Alpha site</a><dt><a href="https://b.example">Beta site</a></dl>'),
      'html',
    );
    expect(bookmarks.text).toContain('Beta site');
  });

  it('warns when a large file yields far less text than its size suggests', async () => {
    const page = `<html><head><style>${'.x{color:red}'.repeat(3000)}</style></head><body><p>Tiny.</p></body></html>`;
    const { notice } = await read(bytes(page), 'html');
    expect(notice).toBe('Only 5 characters of text were found in this 38 KB file.');
  });
});

describe('scanned PDFs', () => {
  it('reads pages without a text layer by OCR and says how many', async () => {
    const scan = await scannedPdf(['THE SPARE KEY IS IN THE BLUE FLOWERPOT.', 'THE BOILER IS SERVICED EVERY MAY.']);
    const { text, chunks, notice } = await read(scan, 'pdf');
    expect(text).toBe('THE SPARE KEY IS IN THE BLUE FLOWERPOT.\nTHE BOILER IS SERVICED EVERY MAY.');
    expect(chunks[0]!.page).toBe(1);
    expect(notice).toBe('1 page had no text layer and was read by OCR.');
  }, 60_000);

  it('reads the text layer of typed pages and OCR only for the scanned one between them', async () => {
    const typed = await PDFDocument.load(await pdfWithPages(['Typed cover page', 'Typed last page']));
    const scanned = await PDFDocument.load(await scannedPdf(['THE MIDDLE PAGE.']));
    typed.insertPage(1, (await typed.copyPages(scanned, [0]))[0]);
    const { chunks, notice } = await read(await typed.save(), 'pdf');
    expect(chunks.map((c) => [c.page, c.text])).toEqual([
      [1, 'Typed cover page'],
      [2, 'THE MIDDLE PAGE.'],
      [3, 'Typed last page'],
    ]);
    expect(notice).toBe('1 page had no text layer and was read by OCR.');
  }, 60_000);

  it('reads at most the page cap and within the time budget, and says how many pages were left', async () => {
    const scan = await scannedPdf(['THE FIRST PAGE.'], ['THE SECOND PAGE.'], ['THE THIRD PAGE.']);
    const pdf = await getDocumentProxy(scan, { verbosity: 0 });
    try {
      const capped = await ocrPages(pdf, [0, 1, 2], { maxPages: 2, budgetMs: 60_000 });
      expect([...capped.texts]).toEqual([
        [0, 'THE FIRST PAGE.'],
        [1, 'THE SECOND PAGE.'],
      ]);
      expect(capped).toMatchObject({ skipped: 1, failed: 0 });
      expect(await ocrPages(pdf, [0, 1, 2], { maxPages: 30, budgetMs: -1 })).toEqual({
        texts: new Map(),
        skipped: 3,
        failed: 0,
      });
    } finally {
      await pdf.destroy();
    }
  }, 60_000);

  it('reads a text layer as before, without OCR or a notice', async () => {
    expect((await read(await pdfWithPages(['Plain text page']), 'pdf')).notice).toBeNull();
  });
});
