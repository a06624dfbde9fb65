import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderText } from './render-text';

/** The rendered fragment as HTML, to compare whole. */
function html(text: string): string {
  const box = document.createElement('div');
  box.appendChild(renderText(text));
  return box.innerHTML;
}

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
});
