/** The 20 icons a bot can choose (spec §3), in the order the wizard offers them. */
export const BOT_ICONS = [
  'utensils',
  'book',
  'laptop-code',
  'newspaper',
  'plane-departure',
  'lightbulb',
  'brain',
  'chart-line',
  'calendar',
  'music',
  'camera',
  'code',
  'shopping-cart',
  'comment',
  'database',
  'server',
  'globe',
  'cog',
  'search',
  'file-alt',
] as const;
export type BotIcon = (typeof BOT_ICONS)[number];

/** The wizard draft's icon, and what any unknown icon name is shown as. */
export const FALLBACK_ICON = 'robot';
export const ICON_NAMES = [...BOT_ICONS, FALLBACK_ICON] as const;
export type IconName = (typeof ICON_NAMES)[number];
