/** The site a web source is on, as people read it (`nih.gov`), or the address as given when it cannot be read. */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** Only web addresses become links; anything else a source might carry is shown as text. */
export const isWebUrl = (url: string | undefined): url is string => !!url && /^https?:\/\//i.test(url);
