import { z } from 'zod';
import {
  BOT_GREETING_MAX,
  BOT_PROMPT_MAX,
  CONTEXT_WINDOW_DEFAULT,
  CONTEXT_WINDOW_MAX,
  CONTEXT_WINDOW_MIN,
  TRUSTED_SOURCES_MAX,
} from '../constants';
import { boundedText, flag } from '../contracts/common';
import { capabilityEnables, type CapabilityHolder } from './capabilities';
import { isDomain, splitTrustedSources } from './trusted-sources';

/**
 * Every bot setting (a field of a bot's config) in one place: how it is validated, what the wizard starts it at
 * and edits it with, how the Finish step and version comparison name and show it, and the line it adds to the
 * prompt. botConfigSchema (contracts/bots.ts) is built from these entries, so a config field cannot lack one.
 */

/** The Customize step's groups of controls. */
export type SettingSection = 'model' | 'style' | 'web' | 'tools' | 'memory';

interface SwitchControl {
  kind: 'switch';
  section: SettingSection;
  description: string;
}
interface ChoiceControl<V extends string> {
  kind: 'choice';
  section: SettingSection;
  /** Each value's label, in the order offered. */
  options: Readonly<Record<V, string>>;
}
interface NumberControl {
  kind: 'number';
  section: SettingSection;
  min: number;
  max: number;
  hint: string;
}
interface TextControl {
  kind: 'text';
  section: SettingSection;
  /** A text area of this many rows, or null for a one-line input. */
  rows: number | null;
  maxLength: number;
  hint: string;
  /** null: the greeting the bot uses when this is left empty, which only the client computes. */
  placeholder: string | null;
  /** Off for values that are not prose (domain names): no spelling marks, no capitals on phones. */
  spellCheck: boolean;
}
/** One of the models an admin enabled (GET /api/models), or null for the instance's default. */
interface ModelControl {
  kind: 'model';
  section: SettingSection;
  hint: string;
}
/** The tools of the person's MCP servers (GET /api/mcp-servers) the bot may call, picked server by server. */
interface ToolsControl {
  kind: 'tools';
  section: SettingSection;
  hint: string;
}
/** Long text written in the Train step or the custom prompt dialog, compared between versions as a text diff. */
interface PromptControl {
  kind: 'prompt';
}

/** The controls a value of this type can have: a switch edits a boolean, a choice one of a few strings, … */
type ControlFor<V> = [V] extends [readonly unknown[]]
  ? ToolsControl
  : [V] extends [boolean]
    ? SwitchControl
    : [V] extends [number]
      ? NumberControl
      : null extends V
        ? ModelControl
        : string extends V
          ? TextControl | PromptControl
          : [V] extends [string]
            ? ChoiceControl<V>
            : never;

interface SettingDescriptor<S extends z.ZodType, C extends ControlFor<z.output<S>>> {
  /** The control's label, the Finish step's term and the name version comparison gives it. */
  label: string;
  /** The value's validation; the config schema makes it optional. */
  schema: S;
  /** What the wizard starts it at. */
  default: z.output<S>;
  control: C;
  /** The Finish step's line for it; null where that step shows it elsewhere (the prompt) or not at all. */
  summary: ((value: z.output<S>) => string) | null;
  /** The instruction it adds to the prompt, null for values that add none; null for settings that never do. */
  prompt: ((value: z.output<S>, bot: CapabilityHolder) => string | null) | null;
}

const setting = <S extends z.ZodType, const C extends ControlFor<z.output<S>>>(descriptor: SettingDescriptor<S, C>) =>
  descriptor;

const TONES = ['professional', 'friendly', 'enthusiastic'] as const;
const WRITING_STYLES = ['concise', 'detailed', 'simple'] as const;

const TONE_LABELS = { professional: 'Professional', friendly: 'Friendly', enthusiastic: 'Enthusiastic' } as const;
const TONE_LINES: Record<(typeof TONES)[number], string> = {
  professional: 'Use a professional tone: courteous, precise and businesslike.',
  friendly: 'Use a friendly tone: warm, approachable and conversational.',
  enthusiastic: 'Use an enthusiastic tone: upbeat and encouraging, with genuine interest in the topic.',
};

const WRITING_STYLE_LABELS = { concise: 'Concise', detailed: 'Detailed', simple: 'Simple' } as const;
const STYLE_LINES: Record<(typeof WRITING_STYLES)[number], string> = {
  concise: 'Write concisely: short answers that get straight to the point, with lists where they help.',
  detailed: 'Write in detail: thorough, well-structured answers with explanations and examples.',
  simple: 'Write simply: plain everyday language and short sentences, without jargon.',
};

/** Spec §5 gives the context-window message word for word; it is also the field's hint. */
const CONTEXT_WINDOW_MESSAGE = `Number of previous messages to consider for context (${CONTEXT_WINDOW_MIN}-${CONTEXT_WINDOW_MAX})`;
const TRUSTED_SOURCES_MESSAGE =
  'Trusted sources must be a comma-separated list of domains (e.g. nature.com, arxiv.org)';

/** The most tools one bot may be given: more crowd the model's context and confuse its choice. */
export const BOT_TOOLS_MAX = 64;
const TOOLS_MESSAGE = 'Tools must be a list of { serverId, name } items';
/**
 * One tool a bot may call: a tool of one of its owner's MCP servers (or a server an admin added for everyone).
 * `autoApprove`: the owner lets it run without asking where nobody can approve (widget, `/v1`, shared links,
 * evaluations) and without asking in the chat; only tools the server does not mark read-only ever ask.
 */
export const botToolSchema = z.object(
  {
    serverId: z.number({ error: TOOLS_MESSAGE }).int(TOOLS_MESSAGE).positive(TOOLS_MESSAGE),
    name: z.string({ error: TOOLS_MESSAGE }).trim().min(1, TOOLS_MESSAGE).max(128, TOOLS_MESSAGE),
    autoApprove: z.boolean({ error: 'autoApprove must be true or false' }).optional(),
  },
  { error: TOOLS_MESSAGE },
);
export type BotTool = z.infer<typeof botToolSchema>;

const onOff = (value: boolean) => (value ? 'On' : 'Off');
const when = (line: string) => (on: boolean) => (on ? line : null);

export const BOT_SETTINGS = {
  model: setting({
    label: 'Model',
    schema: z
      .string({ error: 'Choose one of the enabled models, or Default' })
      .trim()
      .min(1, 'Choose one of the enabled models, or Default')
      .max(600, 'Choose one of the enabled models, or Default')
      .nullable(),
    default: null,
    control: {
      kind: 'model',
      section: 'model',
      hint: 'The model that writes this botty’s answers. Default follows what the administrator chose.',
    },
    // The label of the model, which only the client knows, is shown by the Finish step itself.
    summary: (model) => model ?? 'Default',
    // Which model answers is decided per reply (the model catalog), not by the prompt.
    prompt: null,
  }),
  tone: setting({
    label: 'Tone',
    schema: z.enum(TONES, { error: `Tone must be one of: ${TONES.join(', ')}` }),
    default: 'professional',
    control: { kind: 'choice', section: 'style', options: TONE_LABELS },
    summary: (tone) => TONE_LABELS[tone],
    prompt: (tone) => TONE_LINES[tone],
  }),
  writingStyle: setting({
    label: 'Writing style',
    schema: z.enum(WRITING_STYLES, { error: `Writing style must be one of: ${WRITING_STYLES.join(', ')}` }),
    default: 'concise',
    control: { kind: 'choice', section: 'style', options: WRITING_STYLE_LABELS },
    summary: (style) => WRITING_STYLE_LABELS[style],
    prompt: (style) => STYLE_LINES[style],
  }),
  greeting: setting({
    label: 'Greeting',
    schema: boundedText('Greeting', BOT_GREETING_MAX),
    default: '',
    control: {
      kind: 'text',
      section: 'style',
      rows: 3,
      maxLength: BOT_GREETING_MAX,
      hint: 'The first message people see. Leave it empty to use the suggestion.',
      placeholder: null,
      spellCheck: true,
    },
    summary: (greeting) => greeting.trim() || 'Default greeting',
    prompt: null,
  }),
  webBrowsing: setting({
    label: 'Web browsing',
    schema: flag('Web browsing'),
    default: false,
    control: {
      kind: 'switch',
      section: 'web',
      description: 'Search the web for current information (the Web search capability).',
    },
    summary: onOff,
    // The web tools bring their own instructions (modules/web/web-context.ts).
    prompt: null,
  }),
  useKnowledgeCutoff: setting({
    label: 'Knowledge cutoff',
    schema: flag('Knowledge cutoff'),
    default: false,
    control: { kind: 'switch', section: 'web', description: 'Say when an answer may be out of date.' },
    summary: onOff,
    prompt: (on, bot) =>
      on
        ? `Your knowledge ends at your training cutoff. When an answer may depend on recent events or facts that change, say that your information may be out of date${capabilityEnables(bot, 'web') ? ', and prefer what you find on the web for recent facts' : ''}.`
        : null,
  }),
  citationGeneration: setting({
    label: 'Citation generation',
    schema: flag('Citation generation'),
    default: false,
    control: { kind: 'switch', section: 'web', description: 'Name the sources behind each answer.' },
    summary: onOff,
    prompt: when(
      'Cite your sources: say where each fact comes from (title and site, with a link when you know it). Never invent a source; if you cannot name one, say so.',
    ),
  }),
  trustedSources: setting({
    label: 'Trusted sources',
    schema: z
      .string({ error: TRUSTED_SOURCES_MESSAGE })
      .trim()
      .max(TRUSTED_SOURCES_MAX, `Trusted sources must be at most ${TRUSTED_SOURCES_MAX} characters`)
      .refine((text) => splitTrustedSources(text).every(isDomain), TRUSTED_SOURCES_MESSAGE),
    default: '',
    control: {
      kind: 'text',
      section: 'web',
      rows: null,
      maxLength: TRUSTED_SOURCES_MAX,
      hint: 'Comma-separated domains, e.g. nature.com, arxiv.org. Web research reads only these sites.',
      placeholder: 'nature.com, arxiv.org',
      spellCheck: false,
    },
    summary: (sources) => sources.trim() || 'Any',
    prompt: (text) => {
      const sources = splitTrustedSources(text);
      return sources.length
        ? `Prefer these trusted sources and point the user to them when relevant: ${sources.join(', ')}.`
        : null;
    },
  }),
  tools: setting({
    label: 'Tools',
    schema: z
      .array(botToolSchema, { error: TOOLS_MESSAGE })
      .max(BOT_TOOLS_MAX, `A botty can use at most ${BOT_TOOLS_MAX} tools`)
      .refine(
        (tools) => new Set(tools.map((t) => `${t.serverId}/${t.name}`)).size === tools.length,
        'Each tool can be chosen once',
      ),
    default: [],
    control: {
      kind: 'tools',
      section: 'tools',
      hint: 'The tools this botty may call. Tools that change things ask the person chatting first, unless you auto-approve them.',
    },
    summary: (tools) => (tools.length ? tools.map((t) => t.name).join(', ') : 'None'),
    // Each MCP tool brings its own description to the model (modules/mcp/); the prompt says nothing of them.
    prompt: null,
  }),
  conversationMemory: setting({
    label: 'Conversation memory',
    schema: flag('Conversation memory'),
    default: true,
    control: { kind: 'switch', section: 'memory', description: 'Remember earlier messages of the conversation.' },
    summary: onOff,
    // Memory decides which messages go along (compose-prompt.ts contextWindowOf), not what the prompt says.
    prompt: null,
  }),
  maxContextMessages: setting({
    label: 'Context window',
    schema: z
      .number({ error: CONTEXT_WINDOW_MESSAGE })
      .int(CONTEXT_WINDOW_MESSAGE)
      .min(CONTEXT_WINDOW_MIN, CONTEXT_WINDOW_MESSAGE)
      .max(CONTEXT_WINDOW_MAX, CONTEXT_WINDOW_MESSAGE),
    default: CONTEXT_WINDOW_DEFAULT,
    control: {
      kind: 'number',
      section: 'memory',
      min: CONTEXT_WINDOW_MIN,
      max: CONTEXT_WINDOW_MAX,
      hint: CONTEXT_WINDOW_MESSAGE,
    },
    summary: (count) => `${count} messages`,
    prompt: null,
  }),
  systemPrompt: setting({
    label: 'Prompt',
    schema: boundedText('System prompt', BOT_PROMPT_MAX),
    default: '',
    control: { kind: 'prompt' },
    summary: null,
    // The prompts are the base the instructions are added to (compose-prompt.ts basePrompt).
    prompt: null,
  }),
  customPrompt: setting({
    label: 'Custom prompt',
    schema: boundedText('Custom prompt', BOT_PROMPT_MAX),
    default: '',
    control: { kind: 'prompt' },
    summary: null,
    prompt: null,
  }),
};

type Settings = typeof BOT_SETTINGS;
export type SettingKey = keyof Settings;
type SettingValues = { [K in SettingKey]: z.output<Settings[K]['schema']> };

/** The settings in their one order: the Customize step's, the Finish step's, the comparison's and the prompt's. */
export const SETTING_KEYS = Object.keys(BOT_SETTINGS) as SettingKey[];

/** The settings the Customize step edits: every one but the prompts. */
export type CustomizeKey = { [K in SettingKey]: Settings[K]['control'] extends PromptControl ? never : K }[SettingKey];
export const CUSTOMIZE_KEYS = SETTING_KEYS.filter(
  (key): key is CustomizeKey => BOT_SETTINGS[key].control.kind !== 'prompt',
);
export const PROMPT_KEYS = SETTING_KEYS.filter(
  (key): key is Exclude<SettingKey, CustomizeKey> => BOT_SETTINGS[key].control.kind === 'prompt',
);

/** The config's shape: every setting, optional (the wizard draft starts empty and PATCH merges what it is sent). */
export const botConfigShape = Object.fromEntries(
  SETTING_KEYS.map((key) => [key, BOT_SETTINGS[key].schema.optional()]),
) as { [K in SettingKey]: z.ZodOptional<Settings[K]['schema']> };

// The descriptors key by key with their value's type, so that one function takes any key with its value.
type Behaviour = {
  [K in SettingKey]: {
    summary: ((value: SettingValues[K]) => string) | null;
    prompt: ((value: SettingValues[K], bot: CapabilityHolder) => string | null) | null;
  };
};
const behaviour: Behaviour = BOT_SETTINGS;

/** The Finish step's line for a setting's value, or null when it has none. */
export const settingSummary = <K extends SettingKey>(key: K, value: SettingValues[K]): string | null =>
  behaviour[key].summary?.(value) ?? null;

/** The instructions a bot's settings add to its prompt, in the settings' order; unset settings add none. */
export function settingPromptLines(bot: CapabilityHolder & { config: Partial<SettingValues> }): string[] {
  const config: Partial<SettingValues> = bot.config;
  const line = <K extends SettingKey>(key: K, value: SettingValues[K] | undefined) =>
    value === undefined ? null : behaviour[key].prompt?.(value, bot);
  return SETTING_KEYS.flatMap((key) => line(key, config[key]) ?? []);
}
