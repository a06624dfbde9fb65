/**
 * A small, safe markdown subset for the widget: paragraphs, line breaks, **bold**, *italic*, `code`, fenced
 * code blocks, bullet and numbered lists, and http(s) links. Built as DOM nodes from text, never as HTML, so
 * nothing a reply says can become markup. The app's full renderer (react-markdown) would be most of the
 * widget's weight.
 */

/** Stands in the text where a mark goes until the DOM is built (a private-use character, never in a reply). */
const MARK = '\uE000';

// Addresses stop at a mark: a sentence that ends with one keeps its mark after the link.
const INLINE =
  /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\[[^\]]+\]\(https?:\/\/[^\s)\uE000]+\)|https?:\/\/[^\s<>()\uE000]+)/;

function inline(text: string, into: Node) {
  for (const [i, part] of text.split(INLINE).entries()) {
    if (!part) continue;
    if (i % 2 === 0) {
      into.appendChild(document.createTextNode(part));
    } else if (part.startsWith('**')) {
      const strong = document.createElement('strong');
      strong.textContent = part.slice(2, -2);
      into.appendChild(strong);
    } else if (part.startsWith('`')) {
      const code = document.createElement('code');
      code.textContent = part.slice(1, -1);
      into.appendChild(code);
    } else if (part.startsWith('*') || part.startsWith('_')) {
      const em = document.createElement('em');
      em.textContent = part.slice(1, -1);
      into.appendChild(em);
    } else {
      const labelled = /^\[([^\]]+)\]\((.+)\)$/.exec(part);
      const a = document.createElement('a');
      a.href = labelled ? labelled[2]! : part;
      a.textContent = labelled ? labelled[1]! : part;
      a.target = '_blank';
      a.rel = 'noopener noreferrer nofollow';
      into.appendChild(a);
    }
  }
}

function paragraph(lines: string[]) {
  const p = document.createElement('p');
  lines.forEach((line, i) => {
    if (i) p.appendChild(document.createElement('br'));
    inline(line, p);
  });
  return p;
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

/** The stand-in put at each offset of `ends` (UTF-16, as the support check gives sentence ends). */
function placeMarks(text: string, ends: readonly number[]): string {
  const at = [...new Set(ends)].filter((end) => end > 0 && end <= text.length).sort((a, b) => b - a);
  return at.reduce((marked, end) => marked.slice(0, end) + MARK + marked.slice(end), text);
}

/** Each stand-in becomes a mark after the text before it; one in a link or code span follows the element instead. */
function replaceMarks(root: Node, mark: () => Node) {
  const walker = document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeValue?.includes(MARK)) found.push(node as Text);
  }
  for (const node of found) {
    const parts = node.nodeValue!.split(MARK);
    const inside = node.parentElement?.closest('a, code');
    if (inside) {
      // In an address or code the stand-in would change what it says; a code block states nothing, so no mark.
      node.nodeValue = parts.join('');
      if (inside.tagName !== 'CODE' || inside.parentElement?.tagName !== 'PRE') inside.after(mark());
      continue;
    }
    const pieces = parts.flatMap((part, i) => (i ? [mark(), part] : [part])).filter((p) => p !== '');
    node.replaceWith(...pieces);
  }
}

/**
 * The reply as DOM nodes; with `marks`, `marks.create()` is put after the text ending at each of `marks.ends`
 * (the sentences no source supports, decision 0044).
 */
export function renderText(text: string, marks?: { ends: readonly number[]; create: () => Node }): DocumentFragment {
  const out = marks?.ends.length ? renderLines(placeMarks(text, marks.ends)) : renderLines(text);
  if (marks?.ends.length) replaceMarks(out, marks.create);
  return out;
}

function renderLines(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i += 1; i < lines.length && !lines[i]!.startsWith('```'); i += 1) code.push(lines[i]!);
      i += 1;
      const pre = document.createElement('pre');
      pre.appendChild(document.createElement('code')).textContent = code.join('\n');
      out.appendChild(pre);
      continue;
    }
    const listKind = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listKind) {
      const list = document.createElement(listKind === BULLET ? 'ul' : 'ol');
      for (let m = listKind.exec(lines[i] ?? ''); m; m = listKind.exec(lines[i] ?? '')) {
        inline(m[1]!, list.appendChild(document.createElement('li')));
        i += 1;
      }
      out.appendChild(list);
      continue;
    }
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const block: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() &&
      !lines[i]!.startsWith('```') &&
      !BULLET.test(lines[i]!) &&
      !NUMBERED.test(lines[i]!)
    ) {
      block.push(lines[i]!.replace(/^#{1,6}\s+/, ''));
      i += 1;
    }
    out.appendChild(paragraph(block));
  }
  return out;
}
