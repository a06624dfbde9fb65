import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Markdown from './markdown';
import { OneBlock, ReplyContext } from './markdown-block';
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

  it('cuts where lexing whole does when lines that start with a letter grow, whatever follows them', () => {
    const reply = [
      'Name | Value\n--- | ---\nalpha | 1\nbeta two\n\n',
      '<!--\nclosing comment -->\nAfter the comment\n\n',
      '> quoted\nlazy words go on\n\n',
      'Title words\n===\n\nPara line\n---\n\nWords\n***\n',
      '```\ncode words\n```\nText right after\n',
      'Überschrift\n---\n\n日本語の文\n***\n',
      '- item\nlazy item words\n\nEnd words here',
    ].join('');
    for (const step of [1, 2, 5]) {
      let blocks: MarkdownBlocks | undefined;
      for (let end = 1; end <= reply.length; end += step) {
        blocks = splitBlocks(reply.slice(0, end), blocks);
        expect(blocks.starts).toEqual(splitBlocks(reply.slice(0, end)).starts);
      }
    }
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
  it('draws a long growing list as one list whose parts are parsed alone, keeping the items before the last part', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}. Point ${i + 1}`).join('\n');
    const view = render(<Markdown streaming>{items(20)}</Markdown>);
    const lists = () => [...view.container.querySelectorAll('ol')];
    const points = () => [...view.container.querySelectorAll('li')];
    expect(lists()).toHaveLength(1);
    expect(points()).toHaveLength(20);
    const [first, ninth] = [points()[0], points()[8]];
    view.rerender(<Markdown streaming>{items(21)}</Markdown>);
    view.rerender(<Markdown cacheId={11}>{items(21)}</Markdown>);
    expect(lists()).toHaveLength(1);
    expect(points()).toHaveLength(21);
    // The parts before the last are neither parsed nor drawn again, while the list grows or when it ends.
    expect(points()[0]).toBe(first);
    expect(points()[8]).toBe(ninth);
  });
  it('keeps every block but the last one’s DOM when the reply ends, and draws that one with its code highlighted', async () => {
    const streamed = '# Title\n\nSome text.\n\n```js\nconst a = 1;\n```';
    const view = render(<Markdown streaming>{streamed}</Markdown>);
    const [heading, paragraph] = [view.container.querySelector('h1'), view.container.querySelector('p')];
    expect(highlightedCode(view.container)).toBeNull();
    view.rerender(<Markdown cacheId={7}>{streamed}</Markdown>);
    expect(view.container.querySelector('h1')).toBe(heading);
    expect(view.container.querySelector('p')).toBe(paragraph);
    // Its groups keep skipping their drawing out of view (their sizes are known); a reply opened later does not.
    expect(view.container.querySelector('.md')?.classList.contains('md-streamed')).toBe(true);
    expect(render(<Markdown cacheId={7}>{streamed}</Markdown>).container.querySelector('.md-streamed')).toBeNull();
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

describe('a long list drawn from its parts', () => {
  const points = (n: number, point: (i: number) => string, marker = (_: number) => '-') =>
    Array.from({ length: n }, (_, i) => `${marker(i)} ${point(i)}\n`).join('');
  const LISTS: Record<string, string> = {
    'tight, with inline markup and citations': points(
      20,
      (i) => `Point **${i}** with [a link](https://example.com/${i}) [1]`,
    ),
    'ordered from 3, with `)`': points(
      19,
      (i) => `Step ${i}`,
      (i) => `${i + 3})`,
    ),
    'loose by its last item alone': points(17, (i) => `Point ${i}`) + '- Last\n\n  with a second paragraph\n',
    'loose by a blank line between two parts': points(8, (i) => `A${i}`) + '\n' + points(9, (i) => `B${i}`),
    'tight, a blank line inside code at the end of a part': [
      points(7, (i) => `A${i}`),
      '- Code:\n  ```\n  one\n\n  ```\n',
      points(9, (i) => `B${i}`),
    ].join(''),
    'with nested lists loose inside': points(12, (i) => `Point ${i}\n  - inner a\n\n  - inner b`),
    'with tasks in its second part only':
      points(8, (i) => `Plain ${i}`) + points(8, (i) => `[${i % 2 ? 'x' : ' '}] Task ${i}`),
    'with quotes, headings and lazy lines': points(16, (i) =>
      i % 3 === 0 ? `> quoted ${i}\nlazy ${i}` : i % 3 === 1 ? `## Heading ${i}` : `Text ${i}\ncontinued`,
    ),
    'ordered, with code and a blank line before the next part': [
      points(
        8,
        (i) => `Step ${i}\n\n    \`\`\`js\n    const a${i} = ${i};\n    \`\`\``,
        (i) => `${i + 1}.`,
      ),
      '\n',
      points(
        9,
        (i) => `Step ${i + 8}`,
        (i) => `${i + 9}.`,
      ),
    ].join(''),
  };
  const html = (element: Element | null) => (element?.outerHTML ?? '').replace(/>\s+</g, '><');

  it.each(Object.entries(LISTS))('is drawn as the whole list parsed at once: %s', (_, list) => {
    const citations = [1];
    const ends = [list.indexOf('B3') + 2, list.length - 2];
    const whole = render(
      <ReplyContext value={{ method: 'judge' }}>
        <div className="md">
          <OneBlock source={list} citations="1" ends={ends.join(',')} open={false} />
        </div>
      </ReplyContext>,
    );
    const parts = render(
      <Markdown citations={citations} unsupported={{ ends, method: 'judge' }}>
        {list}
      </Markdown>,
    );
    const expected = html(whole.container.querySelector(':scope > .md > :is(ul, ol)'));
    expect(expected).toMatch(/^<(ul|ol)/);
    expect(html(parts.container.querySelector('.md > :is(ul, ol)'))).toBe(expected);
  });

  it('is one list at every step of its stream, and the whole list once it ends', async () => {
    const list = LISTS['loose by its last item alone']!;
    const view = render(<Markdown streaming>{''}</Markdown>);
    for (let end = 1; end <= list.length; end += 3) {
      view.rerender(<Markdown streaming>{list.slice(0, end)}</Markdown>);
      // (The open block may show its last parse for a moment: useOpenBlock.)
      expect(view.container.querySelectorAll('ul').length).toBeLessThanOrEqual(1);
      // Nor has it more items than the text so far (a part drawn from another part's parse would).
      const items = list.slice(0, end).match(/^-(?: |$)/gm)?.length ?? 0;
      expect(view.container.querySelectorAll('li').length).toBeLessThanOrEqual(items);
    }
    view.rerender(<Markdown cacheId={12}>{list}</Markdown>);
    const whole = render(<OneBlock source={list} citations="" ends="" open={false} />);
    await waitFor(() =>
      expect(html(view.container.querySelector('ul'))).toBe(html(whole.container.querySelector('ul'))),
    );
  });
});
