import { describe, expect, it } from 'vitest';
import { activitiesQuerySchema } from './activities';
import { botConfigSchema, createBotBodySchema, updateBotBodySchema } from './bots';
import { idParamsSchema } from './common';

const valid = { name: 'Meal Planner', description: 'Plans meals', purpose: 'planning' };

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? [] : result.error!.issues.map((i) => i.message);
}

describe('createBotBodySchema', () => {
  it('fills the wizard defaults, trims text and ignores userId', () => {
    const parsed = createBotBodySchema.parse({ ...valid, name: '  Meal Planner ', userId: 99 });
    expect(parsed).toMatchObject({ name: 'Meal Planner', icon: 'robot', capabilities: [], config: {} });
    expect(parsed.active).toBeUndefined();
  });

  it.each([
    [{ name: '   ' }, 'Name is required'],
    [{ name: undefined }, 'Name is required'],
    [{ name: 'x'.repeat(61) }, 'Name must be at most 60 characters'],
    [{ description: '' }, 'Description is required'],
    [{ description: 'x'.repeat(501) }, 'Description must be at most 500 characters'],
    [{ purpose: 'chatting' }, 'Purpose must be one of: answering, creating, analyzing, planning'],
    [{ icon: 'rocket' }, 'Choose one of the available icons'],
    [
      { capabilities: ['web_search', 'telepathy'] },
      'Capabilities must be among: web_search, document_analysis, image_understanding, memory_context, tools',
    ],
    [{ capabilities: ['web_search', 'web_search'] }, 'Each capability can be chosen only once'],
  ])('rejects %j with %j', (change, message) => {
    expect(messages(createBotBodySchema.safeParse({ ...valid, ...change }))).toEqual([message]);
  });
});

describe('botConfigSchema', () => {
  it('accepts a full config', () => {
    const config = {
      tone: 'friendly',
      writingStyle: 'concise',
      greeting: 'Hi!',
      webBrowsing: true,
      useKnowledgeCutoff: false,
      trustedSources: 'nature.com, arxiv.org',
      conversationMemory: true,
      maxContextMessages: 10,
      citationGeneration: true,
      systemPrompt: 'You are helpful.',
      customPrompt: '  Be brief.  ',
    };
    expect(botConfigSchema.parse(config)).toEqual({ ...config, customPrompt: 'Be brief.' });
  });

  it.each([0, 21, 2.5, '10'])('rejects a context window of %j with the spec message', (value) => {
    expect(messages(botConfigSchema.safeParse({ maxContextMessages: value }))).toEqual([
      'Number of previous messages to consider for context (1-20)',
    ]);
  });

  it.each([1, 20])('accepts a context window of %j', (value) => {
    expect(botConfigSchema.safeParse({ maxContextMessages: value }).success).toBe(true);
  });

  it.each(['nature', 'nature.com; arxiv.org', 'https://nature.com', 'nature.com, not a domain'])(
    'rejects trusted sources %j',
    (value) => {
      expect(messages(botConfigSchema.safeParse({ trustedSources: value }))).toEqual([
        'Trusted sources must be a comma-separated list of domains (e.g. nature.com, arxiv.org)',
      ]);
    },
  );

  it.each(['', 'nature.com', ' nature.com,arxiv.org , ', 'WWW.BBC.CO.UK'])('accepts trusted sources %j', (value) => {
    expect(botConfigSchema.safeParse({ trustedSources: value }).success).toBe(true);
  });

  it('rejects unknown tones and styles and overlong prompts', () => {
    expect(messages(botConfigSchema.safeParse({ tone: 'grumpy' }))).toEqual([
      'Tone must be one of: professional, friendly, enthusiastic',
    ]);
    expect(messages(botConfigSchema.safeParse({ writingStyle: 'verbose' }))).toEqual([
      'Writing style must be one of: concise, detailed, simple',
    ]);
    expect(messages(botConfigSchema.safeParse({ customPrompt: 'x'.repeat(8001) }))).toEqual([
      'Custom prompt must be at most 8000 characters',
    ]);
    expect(messages(botConfigSchema.safeParse({ greeting: 'x'.repeat(501) }))).toEqual([
      'Greeting must be at most 500 characters',
    ]);
  });

  it('drops keys it does not know', () => {
    expect(botConfigSchema.parse({ tone: 'friendly', evil: true })).toEqual({ tone: 'friendly' });
  });
});

describe('updateBotBodySchema', () => {
  it('accepts an empty change and any subset', () => {
    expect(updateBotBodySchema.parse({})).toEqual({});
    expect(updateBotBodySchema.parse({ active: false, config: { customPrompt: ' x ' } })).toEqual({
      active: false,
      config: { customPrompt: 'x' },
    });
  });
});

describe('path ids and the activities limit', () => {
  it.each(['1', '42', '2147483647'])('accepts id %s', (id) => {
    expect(idParamsSchema.parse({ id })).toEqual({ id: Number(id) });
  });

  it.each(['0', 'abc', '1.5', '-1', '2147483648', '99999999999', ''])('rejects id %j', (id) => {
    expect(messages(idParamsSchema.safeParse({ id }))).toEqual(['Id must be a positive whole number']);
  });

  it('defaults the limit to 10 and bounds it to 1-50', () => {
    expect(activitiesQuerySchema.parse({})).toEqual({ limit: 10 });
    expect(activitiesQuerySchema.parse({ limit: '3' })).toEqual({ limit: 3 });
    for (const limit of ['0', '51', 'x', '2.5']) {
      expect(messages(activitiesQuerySchema.safeParse({ limit }))).toEqual([
        'Limit must be a whole number from 1 to 50',
      ]);
    }
  });
});
