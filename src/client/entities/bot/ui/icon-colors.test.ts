import { describe, expect, it } from 'vitest';
import { BOT_ICONS, ICON_NAMES } from '@shared/bots/icons';
import { iconStyle } from './icon-colors';

describe('icon colours', () => {
  it('gives every icon a light and dark background and text colour', () => {
    for (const name of ICON_NAMES) {
      const style = iconStyle(name);
      expect(style.name).toBe(name);
      expect(style.background).toMatch(/^bg-\S+ dark:bg-\S+$/);
      expect(style.text).toMatch(/^text-\S+ dark:text-\S+$/);
    }
  });

  it('gives the icons distinct colour pairs', () => {
    const pairs = BOT_ICONS.map((name) => iconStyle(name).background);
    expect(new Set(pairs).size).toBe(BOT_ICONS.length);
  });

  it.each(['unknown', '', 'toString', null, undefined])('shows %s as the robot', (name) => {
    expect(iconStyle(name)).toEqual(iconStyle('robot'));
    expect(iconStyle(name).name).toBe('robot');
  });

  it('keeps a known icon', () => {
    expect(iconStyle('utensils')).toEqual({
      name: 'utensils',
      background: 'bg-orange-100 dark:bg-orange-500/15',
      text: 'text-orange-600 dark:text-orange-400',
    });
  });
});
