import { describe, expect, it } from 'vitest';
import { buildLocalPrompt } from '@shared/bots/prompt-template';
import type { BotConfig } from '@shared/contracts/bots';
import { composePrompt, composeSystemPrompt, contextWindowOf, type HistoryMessage } from './compose-prompt';

const bot = (config: BotConfig = {}) => ({
  name: 'Meal Planner',
  description: 'Plans weekly meals',
  purpose: 'planning' as const,
  config,
});

const history: HistoryMessage[] = Array.from({ length: 14 }, (_, i) => ({
  role: i % 2 === 0 ? 'user' : 'assistant',
  content: `message ${i + 1}`,
}));

describe('composeSystemPrompt', () => {
  it('uses the custom prompt, else the system prompt, else the local template', () => {
    expect(composeSystemPrompt(bot({ customPrompt: 'Custom.', systemPrompt: 'System.' }))).toBe('Custom.');
    expect(composeSystemPrompt(bot({ customPrompt: '   ', systemPrompt: ' System. ' }))).toBe('System.');
    expect(composeSystemPrompt(bot({ systemPrompt: '' }))).toBe(buildLocalPrompt(bot()));
  });

  it.each([
    [{ tone: 'professional' }, 'Use a professional tone: courteous, precise and businesslike.'],
    [{ tone: 'friendly' }, 'Use a friendly tone: warm, approachable and conversational.'],
    [{ tone: 'enthusiastic' }, 'Use an enthusiastic tone: upbeat and encouraging, with genuine interest in the topic.'],
    [
      { writingStyle: 'concise' },
      'Write concisely: short answers that get straight to the point, with lists where they help.',
    ],
    [
      { writingStyle: 'detailed' },
      'Write in detail: thorough, well-structured answers with explanations and examples.',
    ],
    [{ writingStyle: 'simple' }, 'Write simply: plain everyday language and short sentences, without jargon.'],
    [
      { citationGeneration: true },
      'Cite your sources: say where each fact comes from (title and site, with a link when you know it). Never invent a source; if you cannot name one, say so.',
    ],
    [
      { trustedSources: ' Nature.com,, arxiv.org ' },
      'Prefer these trusted sources and point the user to them when relevant: nature.com, arxiv.org.',
    ],
    [
      { useKnowledgeCutoff: true },
      'Your knowledge ends at your training cutoff. When an answer may depend on recent events or facts that change, say that your information may be out of date.',
    ],
    [
      { useKnowledgeCutoff: true, webBrowsing: true },
      'Your knowledge ends at your training cutoff. When an answer may depend on recent events or facts that change, say that your information may be out of date, and prefer what you find on the web for recent facts.',
    ],
  ] as [BotConfig, string][])('adds %j as the line %j', (config, line) => {
    expect(composeSystemPrompt(bot({ systemPrompt: 'Base.', ...config }))).toBe(`Base.\n\nHow to respond:\n- ${line}`);
  });

  it('adds nothing for settings that are off, and lists several in a fixed order', () => {
    const off = { citationGeneration: false, useKnowledgeCutoff: false, webBrowsing: false, trustedSources: '' };
    expect(composeSystemPrompt(bot({ systemPrompt: 'Base.', ...off }))).toBe('Base.');
    const all = composeSystemPrompt(
      bot({
        customPrompt: 'Base.',
        writingStyle: 'simple',
        tone: 'friendly',
        webBrowsing: true,
        trustedSources: 'nature.com',
      }),
    );
    expect(all.split('\n')).toEqual([
      'Base.',
      '',
      'How to respond:',
      expect.stringMatching(/^- Use a friendly tone/),
      expect.stringMatching(/^- Write simply/),
      expect.stringMatching(/^- Prefer these trusted sources .*: nature\.com\.$/),
    ]);
  });

  it('never tells a web-browsing bot that it cannot browse: the web tools bring their own instructions', () => {
    expect(composeSystemPrompt(bot({ systemPrompt: 'Base.', webBrowsing: true }))).toBe('Base.');
    expect(composeSystemPrompt({ ...bot({ systemPrompt: 'Base.' }), capabilities: ['web_search'] })).toBe('Base.');
  });

  it('tells the model to prefer the web for recent facts when the web_search capability is on', () => {
    const prompt = composeSystemPrompt({ ...bot({ useKnowledgeCutoff: true }), capabilities: ['web_search'] });
    expect(prompt).toContain('prefer what you find on the web for recent facts');
    expect(composeSystemPrompt(bot({ useKnowledgeCutoff: false, webBrowsing: true }))).not.toMatch(/out of date/);
  });
});

describe('composePrompt', () => {
  const contents = (turns: ReturnType<typeof composePrompt>['turns']) => turns.map((m) => `${m.role}:${m.text}`);

  it('sends the last maxContextMessages messages before the new one when memory is on', () => {
    const { system, turns } = composePrompt(bot({ conversationMemory: true, maxContextMessages: 3 }), history, 'new');
    expect(system).toBe(buildLocalPrompt(bot()));
    expect(contents(turns)).toEqual(['assistant:message 12', 'user:message 13', 'assistant:message 14', 'user:new']);
  });

  it('keeps 10 messages by default, and memory is on unless switched off', () => {
    expect(composePrompt(bot(), history, 'new').turns).toHaveLength(11);
    expect(contents(composePrompt(bot({ maxContextMessages: 20 }), history.slice(0, 2), 'new').turns)).toEqual([
      'user:message 1',
      'assistant:message 2',
      'user:new',
    ]);
  });

  it('sends only the new message when memory is off', () => {
    expect(
      contents(composePrompt(bot({ conversationMemory: false, maxContextMessages: 5 }), history, 'new').turns),
    ).toEqual(['user:new']);
  });

  it('names the window size the repository loads', () => {
    expect([
      contextWindowOf({}),
      contextWindowOf({ maxContextMessages: 4 }),
      contextWindowOf({ conversationMemory: false }),
    ]).toEqual([10, 4, 0]);
  });
});
