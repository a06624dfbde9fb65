import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Markdown from './markdown';
import { UNSUPPORTED_LABEL } from './unsupported-marker';

/** The text of the rendered reply with each mark as ⟨?⟩, to see where the marks went. */
function marked(content: string, sentences: string[]) {
  const ends = sentences.map((s) => content.indexOf(s) + s.length);
  const { container } = render(
    <Markdown citations={[1]} unsupported={{ ends, method: 'judge' }}>
      {content}
    </Markdown>,
  );
  for (const mark of container.querySelectorAll(`[aria-label="${UNSUPPORTED_LABEL}"]`)) mark.textContent = '⟨?⟩';
  return container.textContent;
}

describe('marks after unsupported sentences', () => {
  it('goes right after the sentence, in plain text, lists and emphasis', () => {
    expect(marked('Refunds take 5 days [1]. Shipping is free. Ask me more.', ['Shipping is free.'])).toBe(
      'Refunds take 5 days [1]. Shipping is free.⟨?⟩ Ask me more.',
    );
    const list = '- Kettles have a two-year warranty [1].\n- They also sing.\n';
    expect(marked(list, ['- They also sing.'])).toContain('They also sing.⟨?⟩');
    expect(marked('**The dial is blue.** It is made of gold.', ['**The dial is blue.**'])).toBe(
      'The dial is blue.⟨?⟩ It is made of gold.',
    );
  });

  it('leaves a reply without unsupported sentences as it was', () => {
    const { container } = render(<Markdown unsupported={{ ends: [], method: 'lexical' }}>Plain text.</Markdown>);
    expect(container.querySelector('button')).toBeNull();
    expect(container.textContent).toBe('Plain text.');
  });
});
