import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Markdown from './markdown';
import { blockSources, type MarkdownBlocks, splitBlocks } from './markdown-blocks';

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

describe('markdown blocks', () => {
  it('cuts a reply streamed a character at a time exactly where lexing it whole does', () => {
    let blocks: MarkdownBlocks | undefined;
    for (let end = 1; end <= REPLY.length; end += 1) blocks = splitBlocks(REPLY.slice(0, end), blocks);
    expect(blocks).toEqual(splitBlocks(REPLY));
    expect(blockSources(blocks!)).toHaveLength(8);
    expect(blockSources(blocks!).join('')).toBe(REPLY);
  });

  it('keeps a reply with a definition whole, so its references still resolve', () => {
    expect(blockSources(splitBlocks('See [the guide][g].\n\n[g]: https://example.com\n'))).toHaveLength(1);
  });
});

describe('Markdown while streaming', () => {
  it('keeps a finished block’s DOM as text is appended, and highlights code only once its block closes', () => {
    const view = render(<Markdown streaming>{'# Title\n\n```js\nconst a = 1;\n'}</Markdown>);
    const heading = view.container.querySelector('h1');
    expect(view.container.querySelector('code.hljs')).toBeNull();

    view.rerender(<Markdown streaming>{'# Title\n\n```js\nconst a = 1;\n```\n\nMore | text'}</Markdown>);
    expect(view.container.querySelector('h1')).toBe(heading);
    expect(view.container.querySelector('code.hljs')).not.toBeNull();

    view.rerender(
      <Markdown citations={[1]}>{'# Title\n\n```js\nconst a = 1;\n```\n\n| a |\n|---|\n| b [1] |'}</Markdown>,
    );
    expect(view.container.querySelector('table td a.md-cite')?.textContent).toBe('[1]');
  });
});
