import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Markdown from './markdown';
import { blockSources, listParts, type MarkdownBlocks, offsetsByBlock, splitBlocks } from './markdown-blocks';
import { UNSUPPORTED_LABEL } from './unsupported-marker';

const REPLY = [
  '# Plan\n\n',
  'Intro with a [link](https://example.com) and [1].\n\n',
  '- one\n- two\n\n  still two\n- three\n\n',
  '| Day | Dish |\n|---|---|\n| Mon | Pasta |\n\n',
  '```js\nconst a = 1;\n\nconst b = 2;\n```\n\n',
  '> quoted\nlazy line\n\n',
  'Setext\n---\n\n',
  'Last paragraph.',
].join('');

const highlightedCode = (container: HTMLElement) => container.querySelector('code.hljs');

// First in the file: the highlighter is loaded once per page, so only the first code drawn waits for it.
describe('the code highlighter', () => {
  it('is loaded once code is on screen: the code shows plain at once, then highlighted in place', async () => {
    const view = render(<Markdown cacheId={1}>{'Intro.\n\n```js\nconst a = 1;\n```'}</Markdown>);
    const code = view.container.querySelector('pre code');
    expect(code?.textContent).toBe('const a = 1;\n');
    expect(highlightedCode(view.container)).toBeNull();
    await waitFor(() =>
      expect(highlightedCode(view.container)?.querySelector('.hljs-keyword')?.textContent).toBe('const'),
    );
    expect(highlightedCode(view.container)?.textContent).toBe('const a = 1;\n');
  });
});

describe('markdown blocks', () => {
  it('cuts a reply streamed a character at a time exactly where lexing it whole does', () => {
    let blocks: MarkdownBlocks | undefined;
    for (let end = 1; end <= REPLY.length; end += 1) blocks = splitBlocks(REPLY.slice(0, end), blocks);
    expect(blocks).toEqual(splitBlocks(REPLY));
    expect(blockSources(blocks!)).toHaveLength(8);
    expect(blockSources(blocks!).join('')).toBe(REPLY);
  });

  it('cuts a long list streamed a character at a time where lexing it whole does, lexing again only its last item', () => {
    const points = Array.from({ length: 12 }, (_, i) => `${i + 1}. Point ${i + 1}\n${i % 3 ? '' : '\n    more\n'}`);
    const reply = `Intro.\n\n${points.join('')}\nAfter the list.\n\n- other list\n+ new list\n\n---\nEnd.`;
    let blocks: MarkdownBlocks | undefined;
    for (let end = 1; end <= reply.length; end += 1) blocks = splitBlocks(reply.slice(0, end), blocks);
    expect(blocks).toEqual(splitBlocks(reply));
    expect(blockSources(blocks!)).toHaveLength(7);
  });

  it('cuts a long list into parts of whole items, leaving what is not one of its items inside an item', () => {
    const list = ['- one\n  more of one', '- two\n\n  ```\n  - not an item\n  ```', '- three', '+ other marker'];
    const source = [...list, '- four', '* * *'].join('\n') + '\n';
    const parts = listParts(source, 2)!;
    expect(blockSources(parts)).toEqual([`${list[0]}\n${list[1]}\n`, `${list[2]}\n${list[3]}\n- four\n* * *\n`]);
    expect(listParts(source, 4)).toBeUndefined();
    expect(listParts('Not a list\n- one\n- two\n- three', 1)).toBeUndefined();
    expect(blockSources(listParts('1) a\n2) b\n3. c\n4) d', 2)!)).toEqual(['1) a\n2) b\n3. c\n', '4) d']);
  });

  it('keeps a reply with a definition whole, so its references still resolve', () => {
    expect(blockSources(splitBlocks('See [the guide][g].\n\n[g]: https://example.com\n'))).toHaveLength(1);
  });

  it('gives each offset to the block it falls in, counted from that block’s start', () => {
    const text = 'One. Two.\n\nThree.\n\nFour.';
    const ends = ['One.', 'Two.', 'Three.', 'Four.'].map((s) => text.indexOf(s) + s.length);
    expect(offsetsByBlock(splitBlocks(text), ends)).toEqual([[4, 9], [6], [5]]);
  });
});

describe('Markdown while streaming', () => {
  it('keeps a finished block’s DOM as text is appended, and highlights code only once its block closes', async () => {
    const view = render(<Markdown streaming>{'# Title\n\n```js\nconst a = 1;\n'}</Markdown>);
    const heading = view.container.querySelector('h1');
    expect(highlightedCode(view.container)).toBeNull();

    const group = view.container.querySelector('.md-finished > .md-group');
    expect(heading?.parentElement).toBe(group);
    view.rerender(<Markdown streaming>{'# Title\n\n```js\nconst a = 1;\n```\n\nMore | text'}</Markdown>);
    expect(view.container.querySelector('h1')).toBe(heading);
    // The finished blocks share a box, kept as blocks are added (a paint layer Chromium reuses while one grows).
    expect(view.container.querySelector('.md-group')).toBe(group);
    expect(group?.children).toHaveLength(2);
    await waitFor(() => expect(highlightedCode(view.container)).not.toBeNull());

    view.rerender(
      <Markdown citations={[1]}>{'# Title\n\n```js\nconst a = 1;\n```\n\n| a |\n|---|\n| b [1] |'}</Markdown>,
    );
    expect(view.container.querySelector('table td a.md-cite')?.textContent).toBe('[1]');
  });
  it('draws a long reply’s finished blocks eight to a box, and keeps the full boxes as it grows', () => {
    const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const view = render(<Markdown streaming>{paragraphs(19)}</Markdown>);
    const groups = () => [...view.container.querySelectorAll('.md-group')];
    expect(groups().map((group) => group.children.length)).toEqual([8, 8, 2]);
    const [full, second] = groups().map((group) => group.firstElementChild);
    view.rerender(<Markdown streaming>{paragraphs(23)}</Markdown>);
    expect(groups().map((group) => group.children.length)).toEqual([8, 8, 6]);
    expect(groups()[0]!.firstElementChild).toBe(full);
    expect(groups()[1]!.firstElementChild).toBe(second);
    // The last block stays outside the boxes while it grows.
    expect(view.container.querySelector('.md > p:last-child')?.textContent).toBe('Paragraph 22.');
  });
  it('parses a long growing table again only after a pause, and then draws what came meanwhile', async () => {
    const table = (n: number) =>
      ['| Point | Note |', '|---|---|', ...Array.from({ length: n }, (_, i) => `| ${i} | **bold** text |`)].join('\n');
    const view = render(<Markdown streaming>{table(300)}</Markdown>);
    const rows = () => view.container.querySelectorAll('tbody tr').length;
    expect(rows()).toBe(300);
    // Parsing 300 rows takes milliseconds; the next is not parsed at once.
    view.rerender(<Markdown streaming>{table(301)}</Markdown>);
    expect(rows()).toBe(300);
    await waitFor(() => expect(rows()).toBe(301));
    // The reply's end draws it at once.
    view.rerender(<Markdown cacheId={9}>{table(302)}</Markdown>);
    expect(rows()).toBe(302);
  });
  it('draws a long growing list in parts, keeping the parts before the last, and as one list once it ends', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}. Point ${i + 1}`).join('\n');
    const view = render(<Markdown streaming>{items(20)}</Markdown>);
    const lists = () => [...view.container.querySelectorAll('ol')];
    expect(lists().map((list) => [list.getAttribute('start'), list.children.length])).toEqual([
      [null, 8],
      ['9', 8],
      ['17', 4],
    ]);
    const firstPart = lists()[0];
    view.rerender(<Markdown streaming>{items(21)}</Markdown>);
    expect(lists()[0]).toBe(firstPart);
    view.rerender(<Markdown cacheId={11}>{items(21)}</Markdown>);
    expect(lists()).toHaveLength(1);
    expect(view.container.querySelectorAll('li')).toHaveLength(21);
  });
  it('keeps every block but the last one’s DOM when the reply ends, and draws that one with its code highlighted', async () => {
    const streamed = '# Title\n\nSome text.\n\n```js\nconst a = 1;\n```';
    const view = render(<Markdown streaming>{streamed}</Markdown>);
    const [heading, paragraph] = [view.container.querySelector('h1'), view.container.querySelector('p')];
    expect(highlightedCode(view.container)).toBeNull();
    view.rerender(<Markdown cacheId={7}>{streamed}</Markdown>);
    expect(view.container.querySelector('h1')).toBe(heading);
    expect(view.container.querySelector('p')).toBe(paragraph);
    await waitFor(() => expect(highlightedCode(view.container)).not.toBeNull());
  });
});

describe('Markdown of a finished reply', () => {
  it('highlights the code of every reply with the one highlighter the page sets up', async () => {
    const view = render(
      <>
        <Markdown>{'```js\nconst a = 1;\n```'}</Markdown>
        <Markdown>{'Text.\n\n```python\ndef b():\n    return 2\n```'}</Markdown>
      </>,
    );
    await waitFor(() => expect(view.container.querySelectorAll('code.hljs')).toHaveLength(2));
    const code = view.container.querySelectorAll('code.hljs');
    expect([...code].map((element) => element.className)).toEqual(['hljs language-js', 'hljs language-python']);
    expect(code[0]!.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(code[1]!.querySelector('.hljs-keyword')?.textContent).toBe('def');
  });

  const text = 'Intro [1].\n\n- Kettles sing.\n- Kettles fly.\n\nDone.';
  const ends = [text.indexOf('fly.') + 4];
  const marks = (container: HTMLElement) => container.querySelectorAll(`[aria-label="${UNSUPPORTED_LABEL}"]`);

  it('is drawn again from its id as it was, and once more when its support check comes', () => {
    const first = render(
      <Markdown citations={[1]} cacheId={42}>
        {text}
      </Markdown>,
    );
    const html = first.container.innerHTML;
    first.unmount();

    // Scrolled back into view: the same markup, and its citation still calls the handler it is given now.
    const cited: number[] = [];
    const again = render(
      <Markdown citations={[1]} cacheId={42} onCite={(n) => cited.push(n)}>
        {text}
      </Markdown>,
    );
    expect(again.container.innerHTML).toBe(html);
    again.container.querySelector<HTMLAnchorElement>('a.md-cite')!.click();
    expect(cited).toEqual([1]);
    expect(marks(again.container)).toHaveLength(0);

    // The check marks a sentence in the second block: the mark lands after it, not at the same offset of the first.
    again.rerender(
      <Markdown citations={[1]} cacheId={42} unsupported={{ ends, method: 'judge' }}>
        {text}
      </Markdown>,
    );
    expect(marks(again.container)).toHaveLength(1);
    expect(marks(again.container)[0]!.closest('li')?.textContent).toBe('Kettles fly.?');
  });
});
