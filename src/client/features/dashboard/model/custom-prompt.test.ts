import { describe, expect, it } from 'vitest';
import { CUSTOM_PROMPT_LONG, CUSTOM_PROMPT_SHORT, customPromptGuidance } from './custom-prompt';

const text = (length: number) => 'a'.repeat(length);

describe('customPromptGuidance', () => {
  it('says nothing about an empty or blank prompt', () => {
    expect(customPromptGuidance('')).toBeNull();
    expect(customPromptGuidance('   \n ')).toBeNull();
  });

  it(`warns under ${CUSTOM_PROMPT_SHORT} characters`, () => {
    expect(customPromptGuidance(text(1))).toBe('short');
    expect(customPromptGuidance(text(CUSTOM_PROMPT_SHORT - 1))).toBe('short');
  });

  it('measures the trimmed text', () => {
    expect(customPromptGuidance(`  ${text(CUSTOM_PROMPT_SHORT - 1)}      `)).toBe('short');
    expect(customPromptGuidance(` ${text(CUSTOM_PROMPT_LONG)}  `)).toBeNull();
  });

  it(`is quiet from ${CUSTOM_PROMPT_SHORT} to ${CUSTOM_PROMPT_LONG} characters`, () => {
    expect(customPromptGuidance(text(CUSTOM_PROMPT_SHORT))).toBeNull();
    expect(customPromptGuidance(text(CUSTOM_PROMPT_LONG))).toBeNull();
  });

  it(`praises over ${CUSTOM_PROMPT_LONG} characters`, () => {
    expect(customPromptGuidance(text(CUSTOM_PROMPT_LONG + 1))).toBe('detailed');
  });
});
