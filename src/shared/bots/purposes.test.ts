import { describe, expect, it } from 'vitest';
import { PURPOSES, purposeLabel } from './purposes';

describe('purposeLabel', () => {
  it.each([
    ['answering', 'Answering questions'],
    ['creating', 'Creating content'],
    ['analyzing', 'Data analysis'],
    ['planning', 'Planning & organization'],
  ])('labels %s as %s', (purpose, label) => {
    expect(purposeLabel(purpose)).toBe(label);
  });

  it.each(['', 'other', 'Answering', 'constructor', null, undefined])('calls %s general assistance', (purpose) => {
    expect(purposeLabel(purpose)).toBe('General assistance');
  });

  it('offers the four purposes in the wizard order', () => {
    expect(PURPOSES).toEqual(['answering', 'creating', 'analyzing', 'planning']);
  });
});
