import { CAPABILITY_INFO } from '@shared/bots/capabilities';
import { purposeLabel } from '@shared/bots/purposes';
import type { BotSnapshot } from '@shared/contracts/bot-versions';
import type { BotConfig } from '@shared/contracts/bots';

/** Readable names of what a version can change: the snapshot's fields and the config's. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  purpose: 'Purpose',
  icon: 'Icon',
  capabilities: 'Capabilities',
  exampleQueries: 'Example queries',
  tone: 'Tone',
  writingStyle: 'Writing style',
  greeting: 'Greeting',
  webBrowsing: 'Web browsing',
  useKnowledgeCutoff: 'Knowledge cutoff',
  trustedSources: 'Trusted sources',
  conversationMemory: 'Conversation memory',
  maxContextMessages: 'Context window',
  citationGeneration: 'Citation generation',
  systemPrompt: 'Prompt',
  customPrompt: 'Custom prompt',
};

export const fieldLabel = (field: string) => FIELD_LABELS[field] ?? field;

/** The prompts are long text, shown as a text diff rather than in the settings table. */
export const PROMPT_FIELDS = ['systemPrompt', 'customPrompt'] as const;

function display(field: string, value: unknown): string {
  if (value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  if (field === 'purpose') return purposeLabel(value as BotSnapshot['purpose']);
  if (field === 'capabilities') {
    const labels = (value as BotSnapshot['capabilities']).map((c) => CAPABILITY_INFO[c].label);
    return labels.sort().join(', ') || '—';
  }
  if (Array.isArray(value)) return value.join(' · ') || '—';
  return String(value);
}

export interface SettingChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

const valueOf = (snapshot: BotSnapshot, field: string): unknown =>
  field in snapshot ? snapshot[field as keyof BotSnapshot] : snapshot.config[field as keyof BotConfig];

/** The settings (not the prompts) that differ between two snapshots, as the user reads them. */
export function settingChanges(before: BotSnapshot, after: BotSnapshot): SettingChange[] {
  const fields = [
    ...(['name', 'description', 'purpose', 'icon', 'capabilities', 'exampleQueries'] as const),
    ...new Set([...Object.keys(before.config), ...Object.keys(after.config)]),
  ].filter((field) => !(PROMPT_FIELDS as readonly string[]).includes(field));
  return fields.flatMap((field) => {
    const [a, b] = [display(field, valueOf(before, field)), display(field, valueOf(after, field))];
    return a === b ? [] : [{ field, label: fieldLabel(field), before: a, after: b }];
  });
}
