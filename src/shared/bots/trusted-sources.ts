/** A host name such as nature.com or www.arxiv.org: dot-separated labels ending in a letters-only TLD. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export const isDomain = (value: string) => DOMAIN.test(value);

/** The domains of a comma-separated trusted-sources text; stray commas and spaces are ignored. */
export function splitTrustedSources(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}
