import { afterAll, describe, expect, it } from 'vitest';
import {
  corruptPdf,
  docxWith,
  encryptedPdf,
  pdfWithoutText,
  pdfWithPages,
  zipBombDocx,
} from '../../../../tests/support/files';
import { CHUNK_TOKENS } from './chunk';
import { createExtractor, DEFAULT_EXTRACTION_LIMITS, type ExtractionOutcome } from './extraction-worker';
import type { DocumentFormat } from './file-formats';

// At the lower nice value alone, as the test app reads files: the suite keeps every core busy (decision 0078).
const extractor = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, priority: 'low' });
afterAll(() => extractor.close());
const extract = (bytes: Uint8Array, format: DocumentFormat) => extractor.extract({ bytes, format });

const text = (s: string) => new TextEncoder().encode(s);

function chunksOf(outcome: ExtractionOutcome) {
  if (!outcome.ok) throw new Error(`extraction failed: ${outcome.error} ${outcome.detail ?? ''}`);
  return outcome.chunks;
}

describe('document extraction in a worker', () => {
  it('reads a PDF page by page and keeps page numbers', async () => {
    const chunks = chunksOf(await extract(await pdfWithPages(['Alpha page', 'Beta page', 'Gamma page']), 'pdf'));
    expect(chunks.map((c) => [c.page, c.text])).toEqual([
      [1, 'Alpha page'],
      [2, 'Beta page'],
      [3, 'Gamma page'],
    ]);
  });

  it('fails readably on encrypted, text-less, corrupt and empty files', async () => {
    expect(await extract(await encryptedPdf(), 'pdf')).toEqual({ ok: false, error: 'This PDF is password-protected' });
    expect(await extract(await pdfWithoutText(), 'pdf')).toEqual({
      ok: false,
      error: 'This PDF has no text layer (scanned?)',
    });
    expect(await extract(corruptPdf(), 'pdf')).toMatchObject({ ok: false, error: expect.stringMatching(/damaged/) });
    expect(await extract(new Uint8Array(), 'txt')).toEqual({ ok: false, error: 'The file is empty' });
    expect(await extract(text('a,"b\n1,2'), 'csv')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This CSV file could not be read: /),
    });
  });

  it('refuses a DOCX zip bomb from its central directory, before inflating it', async () => {
    expect(await extract(await zipBombDocx(), 'docx')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/zip bomb/),
    });
  });

  it('reads a DOCX with its headings as sections', async () => {
    const chunks = chunksOf(
      await extract(
        await docxWith(['# Opening hours', 'We open at nine.', '# Prices', 'Tea costs two euros.']),
        'docx',
      ),
    );
    expect(chunks.map((c) => [c.section, c.text])).toEqual([
      ['Opening hours', '# Opening hours\n\nWe open at nine.'],
      ['Prices', '# Prices\n\nTea costs two euros.'],
    ]);
  });

  it('keeps CSV rows whole with the header repeated in every chunk', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `${i + 1},Product number ${i + 1},${(i * 1.5).toFixed(2)}`);
    const chunks = chunksOf(await extract(text(['id,name,price', ...rows].join('\n')), 'csv'));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.text.startsWith('id | name | price\n')).toBe(true);
    expect(chunks[0]!.section).toMatch(/^Rows 1–\d+$/);
    expect(chunks.at(-1)!.section).toMatch(/–200$/);
  });

  it('splits long text into overlapping chunks of a few hundred tokens', async () => {
    const sentences = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} talks about topic ${i % 7}.`);
    const chunks = chunksOf(await extract(text(sentences.join(' ')), 'txt'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_TOKENS * 4);
    // Each chunk starts with the end of the previous one.
    const tail = chunks[0]!.text.slice(-40);
    expect(chunks[1]!.text).toContain(tail);
  });

  it('reads HTML as a whole document and JSON pretty-printed', async () => {
    const html = chunksOf(
      await extract(
        text(
          '<!doctype html><html><head><title>T</title></head><body><h1>Menu</h1><p>Soup of the day.</p></body></html>',
        ),
        'html',
      ),
    );
    expect(html.map((c) => c.text).join('\n')).toContain('Soup of the day.');
    const json = chunksOf(await extract(text('{"a":{"b":1}}'), 'json'));
    expect(json[0]!.text).toBe('{\n  "a": {\n    "b": 1\n  }\n}');
  });

  it('keeps JSON nested past what pretty-printing can recurse through as written', async () => {
    const deep = `${'['.repeat(200_000)}"core"${']'.repeat(200_000)}`;
    const chunks = chunksOf(await extract(text(deep), 'json'));
    expect(chunks.map((c) => c.text).join('')).toContain('"core"');
  });

  it('stops a job that takes longer than its time limit', async () => {
    const impatient = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, timeoutMs: 1, maxMemoryMb: 128 });
    const outcome = await impatient.extract({ bytes: await pdfWithPages(['slow']), format: 'pdf' });
    expect(outcome).toEqual({ ok: false, error: 'Reading this file took longer than 0 s.' });
    await impatient.close();
  });
});
