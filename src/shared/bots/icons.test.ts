import { describe, expect, it } from 'vitest';
import { BOT_ICONS, ICON_NAMES } from './icons';

describe('icons', () => {
  it('lists the 20 icons of spec §3 in order', () => {
    expect(BOT_ICONS).toEqual([
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
    ]);
    expect(ICON_NAMES).toEqual([...BOT_ICONS, 'robot']);
  });
});
