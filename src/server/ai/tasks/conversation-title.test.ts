import { describe, expect, it } from 'vitest';
import { CONVERSATION_TITLE_MAX } from '@shared/constants';
import { fallbackTitle, plainTitle } from './conversation-title';

describe('conversation titles as stored', () => {
  it('keep the words of markdown, not its marks', async () => {
    expect(await plainTitle('**Sourdough** starter _care_ with `flour`')).toBe('Sourdough starter care with flour');
    expect(await plainTitle('See [the guide](https://example.com/guide) now')).toBe('See the guide now');
    expect(await plainTitle('# Heading\n\nand a second line')).toBe('Heading and a second line');
  });

  it('are cut at a word within the limit, with no stored ellipsis', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const title = await plainTitle(long);
    expect(title.length).toBeLessThanOrEqual(CONVERSATION_TITLE_MAX);
    expect(long.startsWith(title)).toBe(true);
    expect(long[title.length]).toBe(' ');
    expect(title).not.toContain('…');
  });

  it('fall back to the first six words of the question, in plain text', async () => {
    expect(await fallbackTitle('Which **houseplants** survive a dark north-facing flat?')).toBe(
      'Which houseplants survive a dark north-facing',
    );
    expect(await fallbackTitle('Hi')).toBe('Hi');
  });
});
