import { BOT_SETTINGS, CUSTOMIZE_KEYS, type BotTool, type SettingKey } from '@shared/bots/bot-settings';
import { CAPABILITY_INFO } from '@shared/bots/capabilities';
import { purposeLabel } from '@shared/bots/purposes';
import type { BotSnapshot } from '@shared/contracts/bot-versions';
import { recordedModelName } from '@/entities/model/model/model-choice';

type SnapshotField = Exclude<keyof BotSnapshot, 'config'>;

/** Readable names of the snapshot's own fields; a config field is named by its setting (bots/bot-settings.ts). */
const SNAPSHOT_LABELS: Record<SnapshotField, string> = {
  name: 'Name',
  description: 'Description',
  purpose: 'Purpose',
  icon: 'Icon',
  capabilities: 'Capabilities',
  exampleQueries: 'Example queries',
  knowledge: 'Knowledge',
};
const SNAPSHOT_FIELDS = Object.keys(SNAPSHOT_LABELS) as SnapshotField[];

const isSnapshotField = (field: string): field is SnapshotField => Object.hasOwn(SNAPSHOT_LABELS, field);
const isSettingKey = (field: string): field is SettingKey => Object.hasOwn(BOT_SETTINGS, field);

/** A changed field's name as people read it; an old version may name a setting that no longer exists. */
export function fieldLabel(field: string): string {
  if (isSnapshotField(field)) return SNAPSHOT_LABELS[field];
  return isSettingKey(field) ? BOT_SETTINGS[field].label : field;
}

/** A bot's tools by name, in a fixed order so that only a real change shows, each auto-approval named. */
const toolsText = (tools: readonly BotTool[]) =>
  tools
    .map((tool) => (tool.autoApprove ? `${tool.name} (auto-approved)` : tool.name))
    .sort()
    .join(', ') || 'None';

function display(field: string, value: unknown): string {
  // Versions from before models could be chosen have none: they too answered with the default.
  if (field === 'model') return typeof value === 'string' ? recordedModelName(undefined, value) : 'Default';
  // No tools and a version from before tools could be chosen read alike.
  if (field === 'tools') return toolsText((value ?? []) as BotTool[]);
  // Each file by name with the start of its content's hash, so a file replaced under the same name shows.
  if (field === 'knowledge') {
    if (value === undefined) return 'Not recorded';
    const files = value as NonNullable<BotSnapshot['knowledge']>;
    return files.map((f) => (f.hash ? `${f.name} (${f.hash.slice(0, 8)})` : f.name)).join(' · ') || 'None';
  }
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

const valueOf = (snapshot: BotSnapshot, field: SnapshotField | SettingKey): unknown =>
  isSnapshotField(field) ? snapshot[field] : snapshot.config[field];

/** The settings (not the prompts, shown as text diffs) that differ between two snapshots, as the user reads them. */
export function settingChanges(before: BotSnapshot, after: BotSnapshot): SettingChange[] {
  return [...SNAPSHOT_FIELDS, ...CUSTOMIZE_KEYS].flatMap((field) => {
    const [a, b] = [display(field, valueOf(before, field)), display(field, valueOf(after, field))];
    return a === b ? [] : [{ field, label: fieldLabel(field), before: a, after: b }];
  });
}
