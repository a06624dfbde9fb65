import { describe, expect, it } from 'vitest';
import { buildLocalPrompt, localExampleQueries } from './prompt-template';

describe('buildLocalPrompt', () => {
  it('builds the full template from name, tidied description and purpose', () => {
    expect(
      buildLocalPrompt({
        name: ' Meal Planner ',
        description: 'You are a bot that plans weekly meals',
        purpose: 'planning',
      }),
    ).toBe(`You are Meal Planner, an AI assistant.

About you: Plans weekly meals.

Your main purpose: planning & organization.

Focus on:
- Breaking goals down into clear, actionable steps
- Organizing tasks, schedules and priorities
- Anticipating obstacles and suggesting alternatives
- Keeping plans realistic and easy to follow

Guidelines:
- Be accurate and honest; if you are not sure, say so instead of guessing.
- Keep answers clear, well organized and relevant to the question.
- Stay within your purpose, and say politely when a request falls outside it.`);
  });

  it.each([
    ['analyzing', 'data analysis', 'Interpreting data'],
    ['answering', 'answering questions', 'Giving accurate, direct answers'],
    ['creating', 'creating content', 'Generating original, engaging content'],
    ['planning', 'planning & organization', 'Breaking goals down'],
    ['something-else', 'general assistance', 'Understanding what the user actually needs'],
  ])('focuses a %s bot on its purpose', (purpose, label, focus) => {
    const prompt = buildLocalPrompt({ name: 'Bot', description: 'Does things.', purpose });
    expect(prompt).toContain(`Your main purpose: ${label}.`);
    expect(prompt).toContain(`- ${focus}`);
    expect(prompt).toContain('About you: Does things.');
  });

  it('leaves out the description line when there is none', () => {
    expect(buildLocalPrompt({ name: 'Bot', description: '  ', purpose: 'answering' })).not.toContain('About you');
  });
});

describe('localExampleQueries', () => {
  it.each(['answering', 'creating', 'analyzing', 'planning', 'other'])(
    'gives five distinct queries for %s, one naming the bot',
    (purpose) => {
      const queries = localExampleQueries(purpose, 'Scout');
      expect(queries).toHaveLength(5);
      expect(new Set(queries).size).toBe(5);
      expect(queries.every((q) => q.trim().length > 0)).toBe(true);
      expect(queries.filter((q) => q.includes('Scout'))).toHaveLength(1);
    },
  );

  it('differs by purpose', () => {
    expect(localExampleQueries('planning', 'X')).not.toEqual(localExampleQueries('creating', 'X'));
    expect(localExampleQueries('planning', 'X')[0]).toBe('Help me plan my week.');
  });
});
