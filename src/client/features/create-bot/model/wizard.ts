import { z } from 'zod';
import { BOT_SETTINGS, CUSTOMIZE_KEYS, type CustomizeKey } from '@shared/bots/bot-settings';
import { CAPABILITIES, capabilitySwitches, hasCapability, type Capability } from '@shared/bots/capabilities';
import { FALLBACK_ICON, type IconName } from '@shared/bots/icons';
import type { Purpose } from '@shared/bots/purposes';
import { EXAMPLE_QUERIES_MAX, EXAMPLE_QUERY_MAX } from '@shared/constants';
import {
  botConfigSchema,
  capabilitySchema,
  iconSchema,
  purposeSchema,
  testNoteSchema,
  type Bot,
  type BotConfig,
  type TestNote,
} from '@shared/contracts/bots';

/** Spec §9: at least 2 example queries to train, 5 advised; progress +5 every 300 ms, held at 95 until done. */
export const MIN_TRAINING_EXAMPLES = 2;
export const ADVISED_TRAINING_EXAMPLES = 5;
const TRAINING_STEP = 5;
export const TRAINING_INTERVAL_MS = 300;
const TRAINING_CAP = 95;

/** The create-bot wizard's steps (spec §2), in order. */
export const WIZARD_STEPS = [
  { step: 1, label: 'Define Bot' },
  { step: 2, label: 'Customize' },
  { step: 3, label: 'Train' },
  { step: 4, label: 'Finish' },
] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number]['step'];

const FIRST_STEP: WizardStep = 1;
const LAST_STEP: WizardStep = 4;

/** Next and back move one step and never leave 1..4 (spec §2). */
export function moveStep(step: WizardStep, by: 1 | -1): WizardStep {
  return Math.min(LAST_STEP, Math.max(FIRST_STEP, step + by)) as WizardStep;
}

/** Only completed steps, the ones before the current one, can be revisited from the step indicator. */
export const isStepCompleted = (step: WizardStep, current: WizardStep) => step < current;

/** The bot being built (spec §3 "Wizard draft"). */
export interface WizardDraft {
  name: string;
  description: string;
  purpose: Purpose;
  icon: IconName;
  capabilities: Capability[];
  config: BotConfig;
}

export const emptyDraft = (): WizardDraft => ({
  name: '',
  description: '',
  purpose: 'answering',
  icon: FALLBACK_ICON,
  capabilities: [],
  config: {},
});

/** Step 1's Continue rule (spec §5): a name and a description that are not just spaces. */
export const isDefined = (draft: Pick<WizardDraft, 'name' | 'description'>) =>
  draft.name.trim() !== '' && draft.description.trim() !== '';

/** Everything the wizard holds, and what survives a page reload. */
export interface WizardState {
  step: WizardStep;
  draft: WizardDraft;
  /** The user's example queries (step 3). */
  exampleQueries: string[];
  /** The queries that came back from training; the user keeps the ones they want as example queries. */
  generatedQueries: string[];
  /** Where the trained prompt came from: the model, or the local template when no model answered. */
  promptSource: PromptSource | null;
  /** The bot's answers to the example queries during the last training. */
  answers: TestAnswer[];
  /** The user's verdicts on those answers, with what they expected; saved with the bot. */
  testNotes: TestNote[];
}

export type PromptSource = 'model' | 'template';

export interface TestAnswer {
  query: string;
  answer: string;
}

export const initialWizardState = (draft: WizardDraft = emptyDraft()): WizardState => ({
  step: FIRST_STEP,
  draft,
  exampleQueries: [],
  generatedQueries: [],
  promptSource: null,
  answers: [],
  testNotes: [],
});

/** A value from storage is untrusted: each config field is kept only when it would pass validation as it is. */
function validConfig(value: unknown): BotConfig {
  if (typeof value !== 'object' || value === null) return {};
  const stored = value as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(botConfigSchema.shape)) {
    const parsed = schema.safeParse(stored[key]);
    if (parsed.success && parsed.data !== undefined) config[key] = parsed.data;
  }
  return config as BotConfig;
}

const queryList = z.array(z.string().max(EXAMPLE_QUERY_MAX)).catch([]);

const storedStateSchema = z.object({
  step: z.union(WIZARD_STEPS.map(({ step }) => z.literal(step))).catch(FIRST_STEP),
  draft: z
    .object({
      name: z.string().catch(''),
      description: z.string().catch(''),
      purpose: purposeSchema.catch('answering'),
      icon: iconSchema.catch(FALLBACK_ICON),
      capabilities: z
        .array(capabilitySchema)
        .catch([])
        .transform((list) => [...new Set(list)]),
      config: z.unknown().transform(validConfig),
    })
    .catch(emptyDraft),
  exampleQueries: queryList,
  generatedQueries: queryList,
  promptSource: z.enum(['model', 'template']).nullable().catch(null),
  answers: z.array(z.object({ query: z.string(), answer: z.string() })).catch([]),
  testNotes: z.array(testNoteSchema).catch([]),
});

/**
 * The wizard state saved before a reload. Anything unreadable falls back field by field, and a draft that
 * lost its name or description goes back to step 1, the only step where they can be entered.
 */
export function parseWizardState(json: string | null): WizardState {
  if (!json) return initialWizardState();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return initialWizardState();
  }
  const parsed = storedStateSchema.safeParse(value);
  if (!parsed.success) return initialWizardState();
  const state = parsed.data;
  return isDefined(state.draft) ? state : { ...state, step: FIRST_STEP };
}

/** Add Example (spec §5): blank text adds nothing, and neither does a query already in the list or one too many. */
export function addExampleQuery(list: readonly string[], text: string): string[] {
  const query = text.trim();
  if (!query || list.includes(query) || list.length >= EXAMPLE_QUERIES_MAX) return [...list];
  return [...list, query];
}

/** Marks the answer to `query` good or bad (or clears the mark with null), keeping what the user expected. */
export function rateAnswer(notes: readonly TestNote[], query: string, rating: TestNote['rating'] | null): TestNote[] {
  const others = notes.filter((note) => note.query !== query);
  if (!rating) return others;
  const expected = notes.find((note) => note.query === query)?.expected ?? '';
  return [...others, { query, rating, expected }];
}

export const noteExpectation = (notes: readonly TestNote[], query: string, expected: string): TestNote[] =>
  notes.map((note) => (note.query === query ? { ...note, expected } : note));

export const canStartTraining = (examples: readonly string[]) => examples.length >= MIN_TRAINING_EXAMPLES;

/** One tick of the training bar (spec §9): +5 per tick, held at 95 until the answer arrives. */
export const nextTrainingProgress = (progress: number) => Math.min(progress + TRAINING_STEP, TRAINING_CAP);

/** Step 2's fields; all of them are set once the step is passed. */
export const customizationSchema = botConfigSchema
  .pick(Object.fromEntries(CUSTOMIZE_KEYS.map((key) => [key, true])) as Record<CustomizeKey, true>)
  .required();
export type Customization = z.infer<typeof customizationSchema>;

export const CUSTOMIZATION_DEFAULTS = Object.fromEntries(
  CUSTOMIZE_KEYS.map((key) => [key, BOT_SETTINGS[key].default]),
) as Customization;

/** The capabilities as saved: the ones on, memory_context following the memory switch. */
export const capabilitiesOf = (draft: WizardDraft): Capability[] =>
  CAPABILITIES.filter((capability) => hasCapability(draft, capability));

/** Step 2's values for a draft: what was chosen, defaults for the rest, the switches that are capabilities as those read. */
export function customizationOf(draft: WizardDraft): Customization {
  const values = Object.fromEntries(
    CUSTOMIZE_KEYS.map((key) => [key, draft.config[key] ?? CUSTOMIZATION_DEFAULTS[key]]),
  ) as Customization;
  return { ...values, ...capabilitySwitches(draft) };
}

/** Edit Botty (decisions §1) opens an existing bot in the wizard, which walks the same steps. */
export function draftFromBot(bot: Bot): WizardDraft {
  return {
    name: bot.name,
    description: bot.description,
    purpose: bot.purpose,
    icon: bot.icon,
    capabilities: [...bot.capabilities],
    config: { ...bot.config },
  };
}

/** Editing starts from the bot as saved, with its example queries and the notes on their answers. */
export const wizardStateFromBot = (bot: Bot): WizardState => ({
  ...initialWizardState(draftFromBot(bot)),
  exampleQueries: [...bot.exampleQueries],
  testNotes: [...bot.testNotes],
});

/** The fields POST /api/bots and PATCH /api/bots/{id} share; each synced pair is saved agreeing. */
export function botFieldsOf(draft: WizardDraft) {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    purpose: draft.purpose,
    icon: draft.icon,
    capabilities: capabilitiesOf(draft),
    config: { ...draft.config, ...capabilitySwitches(draft) },
  };
}
