import { describe, expect, it } from 'vitest';
import { splitSources } from '@shared/chat/cited-sources';
import { checkSupport } from './check-support';
import { sentencesOf } from './support-sentences';

// A real returns policy, as a knowledge file's passage would be, and a page about the warranty.
const RETURNS = {
  n: 1,
  title: 'returns-policy.md',
  snippet:
    'Customers may return unused items within 30 days of delivery for a full refund. Refunds are issued to the ' +
    'original payment method within 5 business days after the returned item is received at our warehouse.',
};
const WARRANTY = {
  n: 2,
  title: 'Warranty — Acme Kettles',
  snippet:
    'Every Acme kettle carries a two-year limited warranty covering defects in materials and workmanship. ' +
    'The warranty does not cover limescale damage or accidental drops.',
};

const offline = new AbortController().signal;

describe('the word-overlap check (no judge model)', () => {
  it('maps sentences to the passages they repeat, flags the invented one, and says it is lexical', async () => {
    const answer =
      'You can return unused items within 30 days of delivery for a full refund [1]. ' +
      'Refunds go back to your original payment method within 5 business days. ' +
      'Shipping is always free for members of our loyalty club.\n\n' +
      'Do you want me to start a return?';
    const support = await checkSupport(null, { answer, sources: [RETURNS, WARRANTY] }, offline);

    expect(support.method).toBe('lexical');
    expect(support.sentences.map((s) => [s.sources, s.checkable, s.supported])).toEqual([
      [[1], true, true],
      [[1], true, true],
      [[], true, false],
      [[], false, false],
    ]);
    expect(support.faithfulness).toBeCloseTo(2 / 3);
    for (const s of support.sentences) expect(answer.slice(s.start, s.end)).toBe(s.text);
    expect(support.sentences[2]!.text).toBe('Shipping is always free for members of our loyalty club.');
  });

  it('does not count greetings, headings, lead-ins or code as claims', async () => {
    const answer =
      '## Warranty\n\nHere is what the warranty says:\n\n' +
      '- Every kettle has a two-year limited warranty covering defects [2].\n' +
      '- Limescale damage is not covered by the warranty.\n\n' +
      '```sh\ncurl https://example.com/claim\n```\n\nI hope this helps!';
    const support = await checkSupport(null, { answer, sources: [RETURNS, WARRANTY] }, offline);

    const checked = support.sentences.filter((s) => s.checkable);
    expect(checked.map((s) => s.text)).toEqual([
      '- Every kettle has a two-year limited warranty covering defects [2].',
      '- Limescale damage is not covered by the warranty.',
    ]);
    expect(checked.every((s) => s.supported && s.sources.join() === '2')).toBe(true);
    expect(support.faithfulness).toBe(1);
  });

  it('puts a citation written after the full stop with the sentence it backs', () => {
    expect(sentencesOf('Refunds take 5 business days. [1] Kettles have a warranty.').map((s) => s.text)).toEqual([
      'Refunds take 5 business days. [1]',
      'Kettles have a warranty.',
    ]);
  });

  it('an answer citing one source lists it, the other is only consulted', async () => {
    const answer = 'Unused items can be returned within 30 days [1]. Our shop opened in 1952.';
    const support = await checkSupport(null, { answer, sources: [RETURNS, WARRANTY] }, offline);
    const { cited, consulted } = splitSources(answer, [RETURNS, WARRANTY], support);
    expect(cited.map((s) => s.n)).toEqual([1]);
    expect(consulted.map((s) => s.n)).toEqual([2]);
    expect(support.sentences.map((s) => s.supported)).toEqual([true, false]);
  });
});
