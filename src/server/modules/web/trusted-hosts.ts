import { domainToASCII } from 'node:url';

/** A trusted-sources entry as URL hosts are spelled: lower case, punycode, no trailing dot. */
const asHost = (domain: string) => (domainToASCII(domain.trim()) || domain.trim().toLowerCase()).replace(/\.$/, '');

/**
 * Whether `host` (a parsed URL's hostname) is one of `trustedSources` or a subdomain of one. Compared label by
 * label, never as a substring: `nih.gov.evil.com` and `evilnih.gov` are outside `nih.gov`. No list trusts all.
 */
export function isTrustedHost(host: string, trustedSources: readonly string[]): boolean {
  if (trustedSources.length === 0) return true;
  const h = asHost(host);
  return trustedSources.map(asHost).some((domain) => domain !== '' && (h === domain || h.endsWith(`.${domain}`)));
}

/** The search-engine filter that keeps results on the trusted sources, e.g. `site:who.int OR site:nih.gov`. */
export const siteFilter = (trustedSources: readonly string[]) =>
  trustedSources.map((domain) => `site:${asHost(domain)}`).join(' OR ');
