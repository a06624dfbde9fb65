import { blockText, parseDocument } from '../../lib/readable-html';

/**
 * The text of an uploaded HTML document (a manual page, an exported wiki page, a fragment): the whole body, with
 * its headings, lists, tables and footnotes, minus navigation chrome. Readability, which the web research uses,
 * looks for one article and drops the rest, which loses most of a manual whose pages are lists and tables.
 */
export async function htmlDocumentText(html: string): Promise<string> {
  const document = await parseDocument(html.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, ''));
  const body = document.body as unknown as Element;
  separateCells(body);
  const whole = blockText(body as unknown as Node);
  for (const chrome of chromeOf(body)) chrome.remove();
  const content = blockText(body as unknown as Node);
  // A page that is (almost) nothing but links, such as a bookmarks file or a table of contents, is kept whole.
  return content.length * 10 >= whole.length ? content : whole;
}

/** Cells on one line with ` | ` between them, so a table row reads as a row. */
function separateCells(root: Element) {
  for (const row of Array.from(root.querySelectorAll('tr'))) {
    Array.from(row.children)
      .filter((cell) => cell.tagName === 'TD' || cell.tagName === 'TH')
      .slice(1)
      .forEach((cell) => cell.prepend('| '));
  }
}

/** Containers that only sectioning content may hold as their own header or footer. */
const SECTIONING = 'article, aside, main, nav, section';
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search']);
const CHROME_CLASS = /(^|[\s_-])(nav|navbar|navheader|navfooter|navigation|breadcrumbs?|skip-?links?)($|[\s_-])/i;
/** Blocks that, when almost all link text, are a link bar (DocBook's navheader table, a "Subsections" list). */
const LINK_BAR_CANDIDATES = new Set(['DIV', 'P', 'UL', 'OL', 'DL', 'TABLE', 'CENTER', 'SPAN']);

/** linkedom keeps attribute names as written, and old generators wrote HREF and CLASS. */
const attribute = (el: Element, name: string) =>
  Array.from(el.attributes).find((a) => a.name.toLowerCase() === name)?.value ?? '';

const textLength = (el: Element) => (el.textContent ?? '').replace(/\s+/g, '').length;

function isLinkBar(el: Element): boolean {
  if (!LINK_BAR_CANDIDATES.has(el.tagName)) return false;
  const links = Array.from(el.querySelectorAll('a')).filter((a) => attribute(a, 'href'));
  if (links.length < 2 || el.querySelector('h1, h2, h3, h4, h5, h6')) return false;
  const linked = links.reduce((sum, a) => sum + textLength(a), 0);
  return linked >= textLength(el) * 0.8;
}

function isChrome(el: Element): boolean {
  const tag = el.tagName;
  if (tag === 'NAV' || CHROME_ROLES.has(attribute(el, 'role'))) return true;
  if ((tag === 'HEADER' || tag === 'FOOTER') && !el.parentElement?.closest(SECTIONING)) return true;
  if (CHROME_CLASS.test(`${attribute(el, 'class')} ${attribute(el, 'id')}`)) return true;
  return isLinkBar(el);
}

/**
 * Navigation chrome: nav elements and landmarks, page-level headers and footers, blocks named as navigation,
 * link bars, and LaTeX2HTML's navigation panels, which sit loose in the body between two marker comments.
 */
function chromeOf(body: Element): ChildNode[] {
  const found: ChildNode[] = [];
  const walk = (el: Element) => {
    let inPanel = false;
    for (const node of Array.from(el.childNodes)) {
      if (node.nodeType === 8) {
        const comment = (node.textContent ?? '').trim();
        if (/^Navigation Panel$/i.test(comment)) inPanel = true;
        else if (/^End of Navigation Panel$/i.test(comment)) inPanel = false;
        continue;
      }
      if (inPanel) found.push(node);
      else if (node.nodeType === 1 && isChrome(node as Element)) found.push(node);
      else if (node.nodeType === 1) walk(node as Element);
    }
  };
  walk(body);
  return found;
}
