import { describe, expect, it } from 'vitest';
import { isDomain, splitTrustedSources } from './trusted-sources';

describe('trusted sources', () => {
  it('splits a comma-separated list, ignoring spaces, case and stray commas', () => {
    expect(splitTrustedSources(' Nature.com,arxiv.org , ,www.bbc.co.uk,')).toEqual([
      'nature.com',
      'arxiv.org',
      'www.bbc.co.uk',
    ]);
    expect(splitTrustedSources('')).toEqual([]);
    expect(splitTrustedSources(undefined)).toEqual([]);
  });

  it.each(['nature.com', 'arxiv.org', 'www.bbc.co.uk', 'my-site.example.io', 'x1.ai'])('accepts %s', (d) => {
    expect(isDomain(d)).toBe(true);
  });

  it.each([
    'nature',
    'https://nature.com',
    'nature.com/path',
    'na ture.com',
    '-bad.com',
    'bad-.com',
    'a..com',
    '.com',
    'a.c0m',
  ])('rejects %s', (d) => {
    expect(isDomain(d)).toBe(false);
  });
});
