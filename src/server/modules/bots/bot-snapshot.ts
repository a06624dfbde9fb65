import type { BotSnapshot } from '@shared/contracts/bot-versions';
import type { Bot, BotConfig } from '@shared/contracts/bots';

/** What a version keeps: everything that shapes answers; not whether the bot is active, nor its usage. */
export const snapshotOf = (bot: Bot): BotSnapshot => ({
  name: bot.name,
  description: bot.description,
  purpose: bot.purpose,
  icon: bot.icon,
  capabilities: [...bot.capabilities],
  config: { ...bot.config },
  exampleQueries: [...bot.exampleQueries],
});

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Config values are flat primitives, so comparing key by key is a full comparison. */
const changedConfigKeys = (a: BotConfig, b: BotConfig) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)] as (keyof BotConfig)[])].filter((k) => a[k] !== b[k]).sort();

/**
 * The fields that differ between two snapshots, top-level names and config keys (`systemPrompt`, `tone`, …);
 * empty when saving changed nothing, which writes no version. Capabilities compare as sets: their order is not a
 * setting.
 */
export function changedFields(before: BotSnapshot, after: BotSnapshot): string[] {
  const changed: string[] = [];
  for (const key of ['name', 'description', 'purpose', 'icon'] as const) {
    if (before[key] !== after[key]) changed.push(key);
  }
  if (!sameList([...before.capabilities].sort(), [...after.capabilities].sort())) changed.push('capabilities');
  if (!sameList(before.exampleQueries, after.exampleQueries)) changed.push('exampleQueries');
  // Versions written before knowledge was recorded say nothing of it, so nothing can be said to have changed.
  const files = (k: BotSnapshot['knowledge']) => k?.map((f) => `${f.fileId}:${f.hash ?? ''}`);
  if (before.knowledge && after.knowledge && !sameList(files(before.knowledge)!, files(after.knowledge)!)) {
    changed.push('knowledge');
  }
  return [...changed, ...changedConfigKeys(before.config, after.config)];
}
