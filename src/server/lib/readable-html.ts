export interface ReadableHtml {
  title: string;
  /** Plain text with a blank line between blocks; headings as `#`…`######` lines so chunkers can split on them. */
  text: string;
}

/** Elements whose text is never content. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'HEAD']);

/** Elements that start a block of their own (a blank line before and after). */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);

const HEADING = /^H([1-6])$/;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Collects the text of `root` block by block: inline whitespace collapsed, one blank line between blocks. */
export function blockText(root: Node): string {
  const blocks: string[] = [];
  let line = '';
  const flush = () => {
    const text = line
      .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .trim();
    if (text) blocks.push(text);
    line = '';
  };
  // Inside <pre> (code, a manual's synopsis) line breaks are the content's own.
  let pre = 0;
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      line +=
        pre > 0 ? (node.textContent ?? '').replace(/\n{2,}/g, '\n') : (node.textContent ?? '').replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = (node as Element).tagName.toUpperCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'BR') {
      line += '\n';
      return;
    }
    const heading = HEADING.exec(tag);
    if (heading) {
      flush();
      const title = oneLine(node.textContent ?? '');
      if (title) blocks.push(`${'#'.repeat(Number(heading[1]))} ${title}`);
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) flush();
    if (tag === 'LI') line += '- ';
    if (tag === 'TD' || tag === 'TH') line += ' ';
    if (tag === 'PRE') pre++;
    for (const child of Array.from(node.childNodes)) walk(child);
    if (tag === 'PRE') pre--;
    if (block) flush();
  };
  walk(root);
  flush();
  return blocks.join('\n\n');
}

/**
 * linkedom leaves a fragment or plain text without a document element, so those are wrapped in a page. linkedom and
 * Readability take a third of a second to load: the first page or document read loads them, not the server's start
 * (decision 0055).
 */
export async function parseDocument(html: string) {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(html);
  if (document.documentElement?.tagName.toUpperCase() === 'HTML') return document;
  return parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document;
}

/**
 * The readable part of an HTML page: Readability's article when it finds one, else the whole body's text.
 * `url` lets Readability resolve relative links; it is never fetched.
 */
export async function readableHtml(html: string, url?: string): Promise<ReadableHtml> {
  const { Readability } = await import('@mozilla/readability');
  const document = await parseDocument(html);
  const pageTitle = oneLine(document.title ?? '');
  if (url && URL.canParse(url)) {
    // Readability reads documentURI/baseURI to resolve relative links; linkedom leaves them empty.
    Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
    Object.defineProperty(document, 'baseURI', { value: url, configurable: true });
  }
  // Readability takes the document apart, so the fallback reads a fresh copy.
  const article = new Readability(document as unknown as Document).parse();
  if (article?.content) {
    const text = blockText((await parseDocument(article.content)).body as unknown as Node);
    if (text) return { title: oneLine(article.title ?? '') || pageTitle, text };
  }
  return { title: pageTitle, text: blockText((await parseDocument(html)).body as unknown as Node) };
}
