import { describe, expect, it } from 'vitest';
import { capabilitiesOf, CHAT_MAX_OUTPUT_TOKENS, imageRefusal, shortTaskSettings } from './model-capabilities';

const MIB = 1024 * 1024;

describe('capabilitiesOf', () => {
  it('knows which models reason, by provider and name', () => {
    const reasons = (provider: 'openai' | 'openai-compatible' | 'anthropic', modelId: string) =>
      capabilitiesOf({ provider, modelId }).reasoning;
    expect(reasons('openai', 'gpt-5-mini')).toBe(true);
    expect(reasons('openai', 'o3')).toBe(true);
    expect(reasons('openai', 'gpt-4o-mini')).toBe(false);
    expect(reasons('openai', 'gpt-5-chat-latest')).toBe(false);
    expect(reasons('openai-compatible', 'deepseek-r1:8b')).toBe(true);
    expect(reasons('openai-compatible', 'openai/gpt-5')).toBe(true);
    expect(reasons('openai-compatible', 'qwq')).toBe(true);
    expect(reasons('openai-compatible', 'llama3.2')).toBe(false);
    expect(reasons('anthropic', 'claude-sonnet-4-5')).toBe(false);
  });

  it('caps chat replies on hosted providers and leaves OpenAI-compatible servers their own default', () => {
    expect(capabilitiesOf({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }).chatMaxOutputTokens).toBe(
      CHAT_MAX_OUTPUT_TOKENS,
    );
    expect(capabilitiesOf({ provider: 'openai', modelId: 'gpt-4o' }).chatMaxOutputTokens).toBe(CHAT_MAX_OUTPUT_TOKENS);
    expect(capabilitiesOf({ provider: 'openai', modelId: 'o4-mini' }).chatMaxOutputTokens).toBeGreaterThan(
      CHAT_MAX_OUTPUT_TOKENS,
    );
    expect(capabilitiesOf({ provider: 'openai-compatible', modelId: 'llama3.2' }).chatMaxOutputTokens).toBeUndefined();
  });
});

describe('shortTaskSettings', () => {
  it('keeps the cap where the model does not reason, and asks OpenAI reasoning models for low effort instead', () => {
    expect(shortTaskSettings({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, 30)).toEqual({
      maxOutputTokens: 30,
    });
    expect(shortTaskSettings({ provider: 'openai', modelId: 'gpt-5' }, 30)).toEqual({
      providerOptions: { openai: { reasoningEffort: 'low' } },
    });
    expect(shortTaskSettings({ provider: 'openai-compatible', modelId: 'deepseek-r1' }, 30)).toEqual({});
  });
});

describe('imageRefusal', () => {
  const anthropic = capabilitiesOf({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  it('measures Anthropic images on their base64 form, and their sides', () => {
    // 3.75 MiB of file is exactly 5 MiB of base64.
    expect(imageRefusal(anthropic, { byteLength: 3.75 * MIB })).toBeNull();
    expect(imageRefusal(anthropic, { byteLength: 3.75 * MIB + 1 })).toEqual({ maxBase64Bytes: 5 * MIB });
    expect(imageRefusal(anthropic, { byteLength: 1000, width: 8001, height: 10 })).toEqual({ maxSide: 8000 });
  });

  it('passes anything to a server that states no limit', () => {
    const local = capabilitiesOf({ provider: 'openai-compatible', modelId: 'llava' });
    expect(imageRefusal(local, { byteLength: 50 * MIB, width: 20_000, height: 20_000 })).toBeNull();
  });
});
