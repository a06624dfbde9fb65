import { describe, expect, it } from 'vitest';
import { botConfigSchema } from '../contracts/bots';
import {
  BOT_SETTINGS,
  CUSTOMIZE_KEYS,
  PROMPT_KEYS,
  SETTING_KEYS,
  settingPromptLines,
  settingSummary,
} from './bot-settings';

const lines = (config: Parameters<typeof settingPromptLines>[0]['config'], capabilities = [] as const) =>
  settingPromptLines({ config, capabilities });

describe('bot settings', () => {
  it('has one descriptor per config field, each with every part, and the config schema is built from them', () => {
    expect(Object.keys(botConfigSchema.shape)).toEqual(SETTING_KEYS);
    for (const key of SETTING_KEYS) {
      const setting = BOT_SETTINGS[key];
      expect(Object.keys(setting).sort(), key).toEqual(['control', 'default', 'label', 'prompt', 'schema', 'summary']);
      expect(setting.schema.safeParse(setting.default).success, key).toBe(true);
    }
  });

  it('names every setting in words, never by its key', () => {
    for (const key of SETTING_KEYS) {
      expect(BOT_SETTINGS[key].label, key).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(BOT_SETTINGS[key].label, key).not.toBe(key);
    }
  });

  it('lets the Customize step edit everything but the prompts, which the Train step writes', () => {
    expect(PROMPT_KEYS).toEqual(['systemPrompt', 'customPrompt']);
    expect(CUSTOMIZE_KEYS).toEqual(SETTING_KEYS.filter((key) => !(PROMPT_KEYS as string[]).includes(key)));
    for (const key of CUSTOMIZE_KEYS) expect(BOT_SETTINGS[key].summary, key).not.toBeNull();
  });

  it('starts the wizard at the defaults of spec §3 and §9', () => {
    const defaults = Object.fromEntries(CUSTOMIZE_KEYS.map((key) => [key, BOT_SETTINGS[key].default]));
    expect(defaults).toEqual({
      model: null,
      tone: 'professional',
      writingStyle: 'concise',
      greeting: '',
      webBrowsing: false,
      useKnowledgeCutoff: false,
      citationGeneration: false,
      trustedSources: '',
      tools: [],
      conversationMemory: true,
      maxContextMessages: 10,
    });
  });

  it.each([
    ['tone', 'enthusiastic', 'Enthusiastic'],
    ['writingStyle', 'simple', 'Simple'],
    ['greeting', '  ', 'Default greeting'],
    ['greeting', 'Hi there', 'Hi there'],
    ['webBrowsing', true, 'On'],
    ['citationGeneration', false, 'Off'],
    ['trustedSources', '', 'Any'],
    ['trustedSources', 'nature.com', 'nature.com'],
    ['maxContextMessages', 12, '12 messages'],
    ['systemPrompt', 'You are Chef.', null],
  ] as const)('sums up %s = %j on the Finish step as %j', (key, value, summary) => {
    expect(settingSummary(key, value)).toBe(summary);
  });
});

describe('prompt lines', () => {
  it.each([
    ['professional', 'Use a professional tone: courteous, precise and businesslike.'],
    ['friendly', 'Use a friendly tone: warm, approachable and conversational.'],
    ['enthusiastic', 'Use an enthusiastic tone: upbeat and encouraging, with genuine interest in the topic.'],
  ] as const)('tone %s', (tone, line) => {
    expect(lines({ tone })).toEqual([line]);
  });

  it.each([
    ['concise', 'Write concisely: short answers that get straight to the point, with lists where they help.'],
    ['detailed', 'Write in detail: thorough, well-structured answers with explanations and examples.'],
    ['simple', 'Write simply: plain everyday language and short sentences, without jargon.'],
  ] as const)('writing style %s', (writingStyle, line) => {
    expect(lines({ writingStyle })).toEqual([line]);
  });

  it('adds nothing for settings that are unset, off, empty or never part of the prompt', () => {
    expect(lines({})).toEqual([]);
    expect(
      lines({
        greeting: 'Hi',
        webBrowsing: true,
        useKnowledgeCutoff: false,
        citationGeneration: false,
        trustedSources: ' , ',
        conversationMemory: true,
        maxContextMessages: 4,
        systemPrompt: 'Base.',
        customPrompt: 'Custom.',
      }),
    ).toEqual([]);
  });

  it('follows the settings order', () => {
    const all = lines({
      trustedSources: 'nature.com',
      citationGeneration: true,
      useKnowledgeCutoff: true,
      writingStyle: 'detailed',
      tone: 'friendly',
    });
    expect(all.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'Use a',
      'Write in',
      'Your knowledge',
      'Cite your',
      'Prefer these',
    ]);
  });

  it('prefers the web for recent facts when the bot browses it, through either half of the pair', () => {
    const suffix = ', and prefer what you find on the web for recent facts.';
    expect(lines({ useKnowledgeCutoff: true })[0]).not.toContain(suffix);
    expect(lines({ useKnowledgeCutoff: true, webBrowsing: true })[0]).toContain(suffix);
    expect(settingPromptLines({ config: { useKnowledgeCutoff: true }, capabilities: ['web_search'] })[0]).toContain(
      suffix,
    );
  });
});
