import { describe, expect, it } from 'vitest';
import { isTrustedHost, siteFilter } from './trusted-hosts';

const TRUSTED = ['nih.gov', 'who.int'];

describe('isTrustedHost', () => {
  it.each(['nih.gov', 'www.nih.gov', 'ods.od.nih.gov', 'NIH.GOV', 'nih.gov.', 'who.int'])('trusts %s', (host) => {
    expect(isTrustedHost(host, TRUSTED)).toBe(true);
  });

  it.each([
    'nih.gov.evil.com',
    'evilnih.gov',
    'nih.gov-evil.com',
    'gov',
    'xn--nih-gov.com',
    'who.int.example',
    '127.0.0.1',
  ])('refuses the lookalike %s', (host) => {
    expect(isTrustedHost(host, TRUSTED)).toBe(false);
  });

  it('matches internationalised domains in their punycode spelling, as URLs give hosts', () => {
    expect(isTrustedHost(new URL('https://www.bücher.de/').hostname, ['bücher.de'])).toBe(true);
    expect(isTrustedHost('bucher.de', ['bücher.de'])).toBe(false);
  });

  it('trusts every host when no sources are listed, none when only blank ones are', () => {
    expect(isTrustedHost('example.com', [])).toBe(true);
    expect(isTrustedHost('example.com', [' '])).toBe(false);
  });
});

describe('siteFilter', () => {
  it('joins the site filters with OR', () => {
    expect(siteFilter(TRUSTED)).toBe('site:nih.gov OR site:who.int');
  });
});
