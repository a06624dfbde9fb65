import { describe, expect, it } from 'vitest';
import { readableHtml } from './readable-html';

const PARAGRAPH =
  'Vitamin D helps the body absorb calcium and keeps bones strong; adults need about 15 micrograms a day. '.repeat(4);

const ARTICLE_PAGE = `<!doctype html><html><head><title>Vitamin D – Fact Sheet</title>
<script>window.tracker = 'never content'</script><style>p { color: red }</style></head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
  <main><article>
    <h1>Vitamin D – Fact Sheet</h1>
    <p>${PARAGRAPH}</p>
    <h2>How much   do I need?</h2>
    <p>${PARAGRAPH} <a href="/table">See the table</a>.</p>
    <h3>Sources</h3>
    <ul><li>Sunlight</li><li>Fish <em>and</em> eggs</li></ul>
  </article></main>
  <footer>© Footer text nobody needs</footer>
</body></html>`;

describe('readableHtml', () => {
  it("keeps the article's paragraphs and headings as #-lines and drops navigation, scripts and styles", async () => {
    const { title, text } = await readableHtml(ARTICLE_PAGE, 'https://ods.od.nih.gov/factsheets/VitaminD');
    expect(title).toBe('Vitamin D – Fact Sheet');
    expect(text).toContain('\n\n## How much do I need?\n\n');
    expect(text).toContain('\n\n### Sources\n\n');
    expect(text).toContain('- Fish and eggs');
    expect(text).toContain('See the table.');
    expect(text.startsWith('Vitamin D helps the body')).toBe(true);
    expect(text).not.toMatch(/tracker|color: red|About us|Footer text/);
    expect(text).not.toMatch(/\n{3,}/);
  });

  it('reads a short page whole, its title tidied (Readability demotes a lone h1 to h2)', async () => {
    const page = `<html><head><title> Short   page </title></head>
      <body><h1>Hello</h1><p>Hello <b>world</b>.</p><p>First line<br>second line</p><script>alert(1)</script></body></html>`;
    expect(await readableHtml(page)).toEqual({
      title: 'Short page',
      text: '## Hello\n\nHello world.\n\nFirst line\nsecond line',
    });
  });

  it('reads fragments, plain text and empty input without throwing', async () => {
    expect(await readableHtml('<p>Only a fragment</p>')).toEqual({ title: '', text: 'Only a fragment' });
    expect(await readableHtml('just some text')).toEqual({ title: '', text: 'just some text' });
    expect(await readableHtml('')).toEqual({ title: '', text: '' });
  });

  it('keeps table cells apart', async () => {
    const page = '<table><tr><th>Age</th><th>Amount</th></tr><tr><td>1–70</td><td>15 µg</td></tr></table>';
    expect((await readableHtml(page)).text).toBe('Age Amount\n\n1–70 15 µg');
  });
});
