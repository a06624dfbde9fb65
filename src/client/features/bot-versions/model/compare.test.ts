import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '@shared/bots/bot-settings';
import { botSnapshotSchema, type BotSnapshot } from '@shared/contracts/bot-versions';
import { fieldLabel, settingChanges } from './compare';

const snapshot = (over: Partial<BotSnapshot> = {}): BotSnapshot => ({
  name: 'Chef',
  description: 'Plans meals',
  purpose: 'planning',
  icon: 'utensils',
  capabilities: ['web_search'],
  config: { tone: 'friendly', systemPrompt: 'You are Chef.' },
  exampleQueries: [],
  ...over,
});

describe('version comparison', () => {
  it('names every field a version can change in words', () => {
    const fields = [...Object.keys(botSnapshotSchema.shape).filter((f) => f !== 'config'), ...SETTING_KEYS];
    for (const field of fields) {
      expect(fieldLabel(field), field).not.toBe(field);
      expect(fieldLabel(field), field).toMatch(/^[A-Z]/);
    }
    expect(fieldLabel('systemPrompt')).toBe('Prompt');
    expect(fieldLabel('maxContextMessages')).toBe('Context window');
  });

  it('lists the settings that differ in the settings order, leaving the prompts to the text diff', () => {
    const before = snapshot();
    const after = snapshot({
      capabilities: ['web_search', 'document_analysis'],
      config: { maxContextMessages: 4, tone: 'professional', webBrowsing: true, systemPrompt: 'You are Remy.' },
    });
    expect(settingChanges(before, after)).toEqual([
      { field: 'capabilities', label: 'Capabilities', before: 'Web search', after: 'Document analysis, Web search' },
      { field: 'tone', label: 'Tone', before: 'friendly', after: 'professional' },
      { field: 'webBrowsing', label: 'Web browsing', before: '—', after: 'On' },
      { field: 'maxContextMessages', label: 'Context window', before: '—', after: '4' },
    ]);
  });

  it('names a model by its name, and no model (or one from before models could be chosen) as Default', () => {
    const chosen = snapshot({ config: { ...snapshot().config, model: '2/claude-haiku' } });
    const reset = snapshot({ config: { ...snapshot().config, model: null } });
    expect(settingChanges(snapshot(), chosen)).toEqual([
      { field: 'model', label: 'Model', before: 'Default', after: 'claude-haiku' },
    ]);
    expect(settingChanges(snapshot(), reset)).toEqual([]);
  });

  it('lists tools by name with their auto-approval, and no tools as None, whatever their order', () => {
    const lookup = { serverId: 1, name: 'lookup' };
    const remove = { serverId: 1, name: 'delete_item', autoApprove: true };
    const withTools = snapshot({ config: { ...snapshot().config, tools: [lookup, remove] } });
    expect(settingChanges(snapshot(), withTools)).toEqual([
      { field: 'tools', label: 'Tools', before: 'None', after: 'delete_item (auto-approved), lookup' },
    ]);
    expect(settingChanges(snapshot({ config: { ...snapshot().config, tools: [] } }), snapshot())).toEqual([]);
    const reordered = snapshot({ config: { ...snapshot().config, tools: [remove, lookup] } });
    expect(settingChanges(withTools, reordered)).toEqual([]);
  });
});
