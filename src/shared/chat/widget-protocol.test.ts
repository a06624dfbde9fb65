import { describe, expect, it } from 'vitest';
import { textColorOn } from './widget-protocol';

describe('textColorOn', () => {
  it('puts white on dark and saturated colours and near-black on light ones', () => {
    expect(textColorOn('#6d28d9')).toBe('#fff');
    expect(textColorOn('#0f766e')).toBe('#fff');
    expect(textColorOn('#000000')).toBe('#fff');
    expect(textColorOn('#facc15')).toBe('#18181b');
    expect(textColorOn('#ffffff')).toBe('#18181b');
    expect(textColorOn('#22d3ee')).toBe('#18181b');
  });
});
