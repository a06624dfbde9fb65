import { describe, expect, it } from 'vitest';
import { hasCapability } from '@shared/bots/capabilities';
import type { Bot } from '@shared/contracts/bots';
import {
  addExampleQuery,
  botFieldsOf,
  canStartTraining,
  capabilitiesOf,
  customizationOf,
  customizationSchema,
  CUSTOMIZATION_DEFAULTS,
  draftFromBot,
  emptyDraft,
  initialWizardState,
  isDefined,
  isStepCompleted,
  moveStep,
  nextTrainingProgress,
  noteExpectation,
  parseWizardState,
  rateAnswer,
  WIZARD_STEPS,
  wizardStateFromBot,
  type WizardState,
} from './wizard';

const bot: Bot = {
  id: 7,
  name: 'Chef',
  description: 'Plans meals',
  purpose: 'planning',
  icon: 'utensils',
  userId: 1,
  active: true,
  capabilities: ['web_search'],
  config: { tone: 'friendly', systemPrompt: 'You are Chef.' },
  exampleQueries: ['Soup tonight?'],
  testNotes: [{ query: 'Soup tonight?', rating: 'bad', expected: 'A recipe' }],
  version: 4,
  publishedVersion: null,
  usageCount: 3,
  lastUsed: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  sharing: { visibility: 'private', hasLink: false, showPrompt: false, embedOrigins: [], embedDailyCap: 200 },
};

describe('wizard steps', () => {
  it('are the four of spec §2', () => {
    expect(WIZARD_STEPS.map((s) => s.label)).toEqual(['Define Bot', 'Customize', 'Train', 'Finish']);
  });

  it('next and back move one step and stay within 1 to 4', () => {
    expect(moveStep(1, 1)).toBe(2);
    expect(moveStep(3, -1)).toBe(2);
    expect(moveStep(4, 1)).toBe(4);
    expect(moveStep(1, -1)).toBe(1);
  });

  it('only steps before the current one count as completed', () => {
    expect(isStepCompleted(1, 3)).toBe(true);
    expect(isStepCompleted(2, 3)).toBe(true);
    expect(isStepCompleted(3, 3)).toBe(false);
    expect(isStepCompleted(4, 3)).toBe(false);
  });
});

describe('the draft', () => {
  it('starts empty as spec §3 describes', () => {
    expect(emptyDraft()).toEqual({
      name: '',
      description: '',
      purpose: 'answering',
      icon: 'robot',
      capabilities: [],
      config: {},
    });
    expect(initialWizardState()).toEqual({
      step: 1,
      draft: emptyDraft(),
      exampleQueries: [],
      generatedQueries: [],
      promptSource: null,
      answers: [],
      testNotes: [],
    });
  });

  it('is defined once name and description are not blank after trimming', () => {
    expect(isDefined({ name: 'Chef', description: 'Plans meals' })).toBe(true);
    expect(isDefined({ name: '   ', description: 'Plans meals' })).toBe(false);
    expect(isDefined({ name: 'Chef', description: '\n\t ' })).toBe(false);
  });

  it('comes from an existing bot for editing', () => {
    expect(draftFromBot(bot)).toEqual({
      name: 'Chef',
      description: 'Plans meals',
      purpose: 'planning',
      icon: 'utensils',
      capabilities: ['web_search'],
      config: { tone: 'friendly', systemPrompt: 'You are Chef.' },
    });
  });

  it('becomes the request fields: trimmed text, web browsing following web_search, memory_context the memory switch', () => {
    const draft = {
      ...emptyDraft(),
      name: ' Chef ',
      description: ' Plans meals ',
      capabilities: ['web_search' as const],
      config: { webBrowsing: false },
    };
    expect(botFieldsOf(draft)).toEqual({
      name: 'Chef',
      description: 'Plans meals',
      purpose: 'answering',
      icon: 'robot',
      capabilities: ['web_search', 'memory_context'],
      config: { webBrowsing: true, conversationMemory: true },
    });
  });

  it('shows Memory & context as the memory switch: on unless turned off, whatever the list says', () => {
    expect(hasCapability(emptyDraft(), 'memory_context')).toBe(true);
    const off = { ...emptyDraft(), capabilities: ['memory_context' as const], config: { conversationMemory: false } };
    expect(hasCapability(off, 'memory_context')).toBe(false);
    expect(capabilitiesOf(off)).toEqual([]);
    expect(customizationOf(off).conversationMemory).toBe(false);
    expect(botFieldsOf(off).config.conversationMemory).toBe(false);
    expect(hasCapability(off, 'web_search')).toBe(false);
  });
});

describe('saved wizard state', () => {
  const saved: WizardState = {
    step: 3,
    draft: {
      ...emptyDraft(),
      name: 'Chef',
      description: 'Plans meals',
      config: { tone: 'friendly', maxContextMessages: 12 },
    },
    exampleQueries: ['What is for dinner?'],
    generatedQueries: ['Plan my week.'],
    promptSource: 'model',
    answers: [{ query: 'What is for dinner?', answer: 'Lentil soup.' }],
    testNotes: [{ query: 'What is for dinner?', rating: 'good', expected: '' }],
  };

  it('round-trips through JSON', () => {
    expect(parseWizardState(JSON.stringify(saved))).toEqual(saved);
  });

  it('falls back to the initial state for nothing, bad JSON or a non-object', () => {
    for (const text of [null, '', '{nope', '42', 'null']) expect(parseWizardState(text)).toEqual(initialWizardState());
  });

  it('repairs field by field and drops config values that would not validate', () => {
    const state = parseWizardState(
      JSON.stringify({
        ...saved,
        step: 9,
        draft: {
          ...saved.draft,
          icon: 'unicorn',
          capabilities: ['web_search', 'web_search', 'telepathy'],
          config: { tone: 'sarcastic', maxContextMessages: 21, trustedSources: 'nature.com', extra: true },
        },
        exampleQueries: 'not a list',
        promptSource: 'guess',
        testNotes: [{ query: 'What is for dinner?', rating: 'meh' }],
      }),
    );
    expect(state.promptSource).toBeNull();
    expect(state.testNotes).toEqual([]);
    expect(state.answers).toEqual(saved.answers);
    expect(state.step).toBe(1);
    expect(state.draft.icon).toBe('robot');
    expect(state.draft.capabilities).toEqual([]);
    expect(state.draft.config).toEqual({ trustedSources: 'nature.com' });
    expect(state.exampleQueries).toEqual([]);
    expect(state.generatedQueries).toEqual(['Plan my week.']);
  });

  it('keeps unique capabilities', () => {
    const state = parseWizardState(
      JSON.stringify({ ...saved, draft: { ...saved.draft, capabilities: ['memory_context', 'memory_context'] } }),
    );
    expect(state.draft.capabilities).toEqual(['memory_context']);
  });

  it('sends a draft without a name or description back to step 1', () => {
    expect(parseWizardState(JSON.stringify({ ...saved, draft: { ...saved.draft, name: ' ' } })).step).toBe(1);
  });
});

describe('training', () => {
  it('adds trimmed, non-blank, new example queries only', () => {
    expect(addExampleQuery([], '  What is for dinner?  ')).toEqual(['What is for dinner?']);
    expect(addExampleQuery(['a'], '   ')).toEqual(['a']);
    expect(addExampleQuery(['a'], ' a ')).toEqual(['a']);
    const full = Array.from({ length: 20 }, (_, i) => `Q${i}`);
    expect(addExampleQuery(full, 'One more')).toEqual(full);
  });

  it('rates answers, keeping what the user expected until the mark is cleared', () => {
    let notes = rateAnswer([], 'Soup?', 'bad');
    expect(notes).toEqual([{ query: 'Soup?', rating: 'bad', expected: '' }]);
    notes = noteExpectation(notes, 'Soup?', 'A recipe');
    notes = rateAnswer(notes, 'Soup?', 'good');
    expect(notes).toEqual([{ query: 'Soup?', rating: 'good', expected: 'A recipe' }]);
    expect(rateAnswer(notes, 'Soup?', null)).toEqual([]);
  });

  it('edits a bot with its example queries and notes', () => {
    expect(wizardStateFromBot(bot)).toMatchObject({
      step: 1,
      draft: draftFromBot(bot),
      exampleQueries: bot.exampleQueries,
      testNotes: bot.testNotes,
    });
  });

  it('starts only with at least 2 examples', () => {
    expect(canStartTraining([])).toBe(false);
    expect(canStartTraining(['a'])).toBe(false);
    expect(canStartTraining(['a', 'b'])).toBe(true);
  });

  it('rises 5 points a tick and holds at 95', () => {
    const ticks: number[] = [];
    let progress = 0;
    for (let i = 0; i < 21; i += 1) ticks.push((progress = nextTrainingProgress(progress)));
    expect(ticks.slice(0, 3)).toEqual([5, 10, 15]);
    expect(ticks.at(18)).toBe(95);
    expect(ticks.at(-1)).toBe(95);
  });
});

describe('customization (step 2)', () => {
  it('fills what was not chosen with defaults; web browsing follows web_search', () => {
    expect(customizationOf(emptyDraft())).toEqual(CUSTOMIZATION_DEFAULTS);
    expect(CUSTOMIZATION_DEFAULTS.maxContextMessages).toBe(10);
    const values = customizationOf({
      ...emptyDraft(),
      capabilities: ['web_search'],
      config: { tone: 'enthusiastic', systemPrompt: 'x' },
    });
    expect(values).toEqual({ ...CUSTOMIZATION_DEFAULTS, tone: 'enthusiastic', webBrowsing: true });
  });

  it('refuses a context window outside 1 to 20 with the spec message', () => {
    for (const n of [0, 21, 2.5, Number.NaN]) {
      const result = customizationSchema.safeParse({ ...CUSTOMIZATION_DEFAULTS, maxContextMessages: n });
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'Number of previous messages to consider for context (1-20)',
      ]);
    }
    expect(customizationSchema.safeParse({ ...CUSTOMIZATION_DEFAULTS, maxContextMessages: 20 }).success).toBe(true);
  });

  it('refuses trusted sources that are not a comma-separated list of domains', () => {
    expect(
      customizationSchema.safeParse({ ...CUSTOMIZATION_DEFAULTS, trustedSources: 'nature.com, arxiv.org' }).success,
    ).toBe(true);
    expect(customizationSchema.safeParse({ ...CUSTOMIZATION_DEFAULTS, trustedSources: 'not a domain' }).success).toBe(
      false,
    );
  });
});
