import type { BotIcon } from '@shared/bots/icons';

/** Accessible names for the icon choices; the stored names are Font Awesome's, not words. */
export const ICON_LABELS: Record<BotIcon, string> = {
  utensils: 'Utensils',
  book: 'Book',
  'laptop-code': 'Laptop',
  newspaper: 'Newspaper',
  'plane-departure': 'Plane',
  lightbulb: 'Light bulb',
  brain: 'Brain',
  'chart-line': 'Line chart',
  calendar: 'Calendar',
  music: 'Music',
  camera: 'Camera',
  code: 'Code',
  'shopping-cart': 'Shopping cart',
  comment: 'Speech bubble',
  database: 'Database',
  server: 'Server',
  globe: 'Globe',
  cog: 'Cog',
  search: 'Magnifying glass',
  'file-alt': 'Document',
};
