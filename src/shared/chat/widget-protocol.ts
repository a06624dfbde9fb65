/**
 * What the embedded widget (src/embed) and the server agree on. Free of zod, so the widget's own bundle stays
 * a few KB: its contract schemas are in contracts/widget.ts.
 */

/** The embedding page's origin, as embed.js put it in the widget page's URL. */
export const EMBED_ORIGIN_HEADER = 'x-botty-embed-origin';
/** The random key the visitor's browser keeps: their widget conversation is found by its hash. */
export const VISITOR_KEY_HEADER = 'x-botty-visitor';
/** 32 random bytes in base64url, as newVisitorKey makes them; anything close is accepted. */
export const VISITOR_KEY_PATTERN = /^[\w-]{22,128}$/;

export function newVisitorKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The visitor's key kept in `storage` under `name`, made on first use. Where storage is refused (a browser
 * that blocks it for the page or frame), a fresh key lives as long as the page, and so does the conversation.
 */
export function keptVisitorKey(storage: () => Storage, name: string): string {
  try {
    const kept = storage().getItem(name);
    if (kept && VISITOR_KEY_PATTERN.test(kept)) return kept;
    const key = newVisitorKey();
    storage().setItem(name, key);
    return key;
  } catch {
    return newVisitorKey();
  }
}

export const WIDGET_MESSAGES = {
  notAvailable: 'This chat is not available on this site.',
  capReached: 'This chat has answered all the questions it can take today. Please come back tomorrow.',
  visitorKey: 'The visitor key is missing or malformed',
} as const;

/** White or near-black, whichever reads better on the owner's `#rrggbb` colour (WCAG contrast). */
export function textColorOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast with white (1.05 / (L + .05)) against with #18181b (L ≈ .0097): the larger wins.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0597 ? '#fff' : '#18181b';
}
