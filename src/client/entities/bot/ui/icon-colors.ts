import { FALLBACK_ICON, type IconName } from '@shared/bots/icons';

export interface IconStyle {
  name: IconName;
  /** Tailwind background classes, light and dark. */
  background: string;
  /** Tailwind text colour classes, light and dark. */
  text: string;
}

// Whole class names written out, because Tailwind finds the classes it generates by scanning the source.
const STYLES: Record<IconName, Omit<IconStyle, 'name'>> = {
  utensils: { background: 'bg-orange-100 dark:bg-orange-500/15', text: 'text-orange-600 dark:text-orange-400' },
  book: { background: 'bg-blue-100 dark:bg-blue-500/15', text: 'text-blue-600 dark:text-blue-400' },
  'laptop-code': { background: 'bg-slate-100 dark:bg-slate-500/15', text: 'text-slate-600 dark:text-slate-300' },
  newspaper: { background: 'bg-stone-100 dark:bg-stone-500/15', text: 'text-stone-600 dark:text-stone-300' },
  'plane-departure': { background: 'bg-sky-100 dark:bg-sky-500/15', text: 'text-sky-600 dark:text-sky-400' },
  lightbulb: { background: 'bg-yellow-100 dark:bg-yellow-500/15', text: 'text-yellow-700 dark:text-yellow-400' },
  brain: { background: 'bg-purple-100 dark:bg-purple-500/15', text: 'text-purple-600 dark:text-purple-400' },
  'chart-line': { background: 'bg-emerald-100 dark:bg-emerald-500/15', text: 'text-emerald-600 dark:text-emerald-400' },
  calendar: { background: 'bg-red-100 dark:bg-red-500/15', text: 'text-red-600 dark:text-red-400' },
  music: { background: 'bg-pink-100 dark:bg-pink-500/15', text: 'text-pink-600 dark:text-pink-400' },
  camera: { background: 'bg-rose-100 dark:bg-rose-500/15', text: 'text-rose-600 dark:text-rose-400' },
  code: { background: 'bg-cyan-100 dark:bg-cyan-500/15', text: 'text-cyan-700 dark:text-cyan-400' },
  'shopping-cart': { background: 'bg-green-100 dark:bg-green-500/15', text: 'text-green-600 dark:text-green-400' },
  comment: { background: 'bg-teal-100 dark:bg-teal-500/15', text: 'text-teal-600 dark:text-teal-400' },
  database: { background: 'bg-violet-100 dark:bg-violet-500/15', text: 'text-violet-600 dark:text-violet-400' },
  server: { background: 'bg-zinc-100 dark:bg-zinc-500/15', text: 'text-zinc-600 dark:text-zinc-300' },
  globe: { background: 'bg-lime-100 dark:bg-lime-500/15', text: 'text-lime-700 dark:text-lime-400' },
  cog: { background: 'bg-gray-100 dark:bg-gray-500/15', text: 'text-gray-600 dark:text-gray-300' },
  search: { background: 'bg-fuchsia-100 dark:bg-fuchsia-500/15', text: 'text-fuchsia-600 dark:text-fuchsia-400' },
  'file-alt': { background: 'bg-amber-100 dark:bg-amber-500/15', text: 'text-amber-700 dark:text-amber-400' },
  robot: { background: 'bg-indigo-100 dark:bg-indigo-500/15', text: 'text-indigo-600 dark:text-indigo-400' },
};

function isIconName(value: unknown): value is IconName {
  return typeof value === 'string' && Object.hasOwn(STYLES, value);
}

/** The icon and colours to show for a stored icon name; unknown names show as the robot. */
export function iconStyle(name: string | null | undefined): IconStyle {
  const resolved = isIconName(name) ? name : FALLBACK_ICON;
  return { name: resolved, ...STYLES[resolved] };
}
