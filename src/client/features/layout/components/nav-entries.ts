/** A main navigation entry; `section` entries stay current on their sub-pages (/admin/people…). */
export interface NavEntry {
  to: string;
  label: string;
  section?: boolean;
}

export const focusRing =
  'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none';
