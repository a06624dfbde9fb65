/** Expiry choices for links and keys, as days from now; null never expires. */
export interface ExpiryChoice {
  label: string;
  days: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The ISO time `days` from now, or null for "never". */
export const expiresAtIn = (days: number | null) =>
  days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString();

/** "Never" or the date, as people read it. */
export const formatExpiry = (expiresAt: string | null) =>
  expiresAt ? new Date(expiresAt).toLocaleDateString(undefined, { dateStyle: 'medium' }) : 'Never';
