/**
 * A small, safe markdown subset for the widget: paragraphs, line breaks, **bold**, *italic*, `code`, fenced
 * code blocks, bullet and numbered lists, and http(s) links. Built as DOM nodes from text, never as HTML, so
 * nothing a reply says can become markup. The app's full renderer (react-markdown) would be most of the
 * widget's weight.
 */

const INLINE =
  /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\[[^\]]+\]\(https?:\/\/[^\s)]+\)|https?:\/\/[^\s<>()]+)/;

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

export function renderText(text: string): DocumentFragment {
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
