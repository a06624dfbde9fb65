/** Values bound for a JSON column (see `Json` in database.ts). */
export const toJson = (value: unknown): string => JSON.stringify(value);

/** SQLite hands JSON columns back as text, PostgreSQL's jsonb as parsed values; both read the same here. */
export const fromJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
