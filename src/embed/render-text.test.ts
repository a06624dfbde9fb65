import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderText } from './render-text';

/** The rendered fragment as HTML, to compare whole; `ends` get a `<mark>` (the widget's button stands there). */
function html(text: string, ends?: number[]): string {
  const box = document.createElement('div');
  box.appendChild(renderText(text, ends && { ends, create: () => document.createElement('mark') }));
  return box.innerHTML;
}

/** Where the sentence `sentence` ends in `text`, as the support check gives it. */
const endOf = (text: string, sentence: string) => text.indexOf(sentence) + sentence.length;

describe('the widget’s markdown subset', () => {
  beforeAll(() => {
    globalThis.document = parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document;
  });

  it('keeps anything that looks like HTML as text', () => {
    expect(html('<img src=x onerror="alert(1)"> and <script>alert(2)</script>')).toBe(
      '<p>&lt;img src=x onerror="alert(1)"&gt; and &lt;script&gt;alert(2)&lt;/script&gt;</p>',
    );
  });

  it('links only http(s) addresses, opening apart from the widget', () => {
    expect(html('[site](https://example.com/a) [bad](javascript:alert(1))')).toBe(
      '<p><a rel="noopener noreferrer nofollow" target="_blank" href="https://example.com/a">site</a> [bad](javascript:alert(1))</p>',
    );
  });

  it('renders paragraphs, emphasis, code, lists and fenced blocks', () => {
    expect(html('# Title\nSome **bold**, *italic* and `code`.\n\n- one\n- two\n\n1. first\n\n```\nx < 1\n```')).toBe(
      '<p>Title<br>Some <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol><pre><code>x &lt; 1</code></pre>',
    );
  });

  it('puts a mark after each sentence no source supports, in plain text, emphasis and lists', () => {
    const text = 'Recalibrate every 42 days. It plays music.\n\n- It is **blue.** Really.\n- Fine.';
    const ends = [endOf(text, 'It plays music.'), endOf(text, 'It is **blue.'), endOf(text, 'Fine.')];
    expect(html(text, ends)).toBe(
      '<p>Recalibrate every 42 days. It plays music.<mark></mark></p>' +
        '<ul><li>It is <strong>blue.<mark></mark></strong> Really.</li><li>Fine.<mark></mark></li></ul>',
    );
  });

  it('never puts a mark inside a link, an address or code', () => {
    const text = 'See [the guide](https://example.com/g). Or https://example.com/x\n\nUse `run it`\n\n```\nx = 1\n```';
    const ends = [
      endOf(text, 'See [the guide'),
      endOf(text, 'https://example.com/x'),
      endOf(text, '`run'),
      endOf(text, 'x ='),
    ];
    expect(html(text, ends)).toBe(
      '<p>See <a rel="noopener noreferrer nofollow" target="_blank" href="https://example.com/g">the guide</a><mark></mark>. ' +
        'Or <a rel="noopener noreferrer nofollow" target="_blank" href="https://example.com/x">https://example.com/x</a><mark></mark></p>' +
        '<p>Use <code>run it</code><mark></mark></p><pre><code>x = 1</code></pre>',
    );
  });
});
