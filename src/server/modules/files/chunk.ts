import type { ExtractedDocument } from './extract';

export interface Chunk {
  text: string;
  /** 1-based PDF page the passage is on. */
  page: number | null;
  /** Nearest heading above the passage, or the rows of a table it holds. */
  section: string | null;
}

/** Token counts are approximated from characters (about four per token in English); no tokenizer is needed. */
const CHARS_PER_TOKEN = 4;
export const CHUNK_TOKENS = 350;
export const OVERLAP_TOKENS = 50;
const CHUNK_CHARS = CHUNK_TOKENS * CHARS_PER_TOKEN;
const OVERLAP_CHARS = OVERLAP_TOKENS * CHARS_PER_TOKEN;

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;

/** Splits text too long for one chunk at sentence ends, then at spaces, then anywhere. */
function pieces(paragraph: string): string[] {
  if (paragraph.length <= CHUNK_CHARS) return [paragraph];
  const out: string[] = [];
  for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
    let rest = sentence;
    while (rest.length > CHUNK_CHARS) {
      const cut = rest.lastIndexOf(' ', CHUNK_CHARS);
      const at = cut > CHUNK_CHARS / 2 ? cut : CHUNK_CHARS;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) out.push(rest);
  }
  return out;
}

/** The end of a chunk, starting at a word, repeated at the start of the next so no passage is cut in two. */
function overlapOf(text: string): string {
  if (text.length <= OVERLAP_CHARS) return text;
  const tail = text.slice(-OVERLAP_CHARS);
  const space = tail.indexOf(' ');
  return space >= 0 ? tail.slice(space + 1) : tail;
}

/** Packs the paragraphs of one unit (a page or a section) into chunks; chunks never span units. */
function chunkUnit(text: string, page: number | null, section: string | null): Chunk[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap(pieces);
  const chunks: Chunk[] = [];
  let current = '';
  for (const piece of paragraphs) {
    if (current && current.length + 2 + piece.length > CHUNK_CHARS) {
      chunks.push({ text: current, page, section });
      current = overlapOf(current);
    }
    current = current ? `${current}\n\n${piece}` : piece;
  }
  if (current) chunks.push({ text: current, page, section });
  return chunks;
}

function chunkHeadedText(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let section: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    chunks.push(...chunkUnit(lines.join('\n'), null, section));
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      section = heading[1]!.slice(0, 300);
    }
    lines.push(line);
  }
  flush();
  return chunks;
}

/** Rows stay whole and every chunk repeats the header, so each passage reads as a table on its own. */
function chunkTable(header: string[], rows: string[][]): Chunk[] {
  const line = (cells: string[]) => cells.join(' | ');
  const head = line(header);
  const chunks: Chunk[] = [];
  let body: string[] = [];
  let first = 1;
  const flush = (last: number) => {
    if (body.length === 0) return;
    const section = first === last ? `Row ${first}` : `Rows ${first}–${last}`;
    chunks.push({ text: `${head}\n${body.join('\n')}`, page: null, section });
    body = [];
    first = last + 1;
  };
  rows.forEach((row, i) => {
    const text = line(row);
    if (body.length > 0 && head.length + body.join('\n').length + text.length + 2 > CHUNK_CHARS) flush(i);
    body.push(text);
  });
  flush(rows.length);
  return chunks;
}

/** Passages of a few hundred tokens with overlap, each keeping its page or section for citations. */
export function chunkDocument(doc: ExtractedDocument): Chunk[] {
  switch (doc.kind) {
    case 'pages':
      return doc.pages.flatMap((text, i) => chunkUnit(text, i + 1, null));
    case 'text':
      return doc.headings ? chunkHeadedText(doc.text) : chunkUnit(doc.text, null, null);
    case 'table':
      return chunkTable(doc.header, doc.rows);
  }
}
