import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callerCallOptions, parameterTable } from './caller-settings';

/** Cells without padding, as prettier may pad and align them differently. */
const bare = (markdown: string) => markdown.replace(/ +/g, '').replace(/:?-+:?/g, '-');

describe('the parameters each provider honours', () => {
  it('are the table README.md shows', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(bare(readme)).toContain(bare(parameterTable()));
  });

  it('reach Anthropic and OpenAI by the names their APIs take', () => {
    const settings = { user: 'u1', parallelToolCalls: false, logprobs: { top: 2 }, topP: 0.5 };
    expect(callerCallOptions('anthropic', settings)).toEqual({
      topP: 0.5,
      providerOptions: { anthropic: { metadata: { userId: 'u1' }, disableParallelToolUse: true } },
    });
    expect(callerCallOptions('openai', settings)).toEqual({
      topP: 0.5,
      providerOptions: { openai: { user: 'u1', parallelToolCalls: false, logprobs: 2 } },
    });
  });
});
