/** Values bound for a JSON column (see `Json` in database.ts). */
export const toJson = (value: unknown): string => JSON.stringify(value);

/** SQLite hands JSON columns back as text, PostgreSQL's jsonb as parsed values; both read the same here. */
export const fromJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * PostgreSQL: a group of rows bound as one statement's parameters, the rows as JSON (for `jsonb_to_recordset`)
 * and their ids as an array. The planner cannot see how many rows the JSON holds and assumes 100, which a
 * named statement's generic plan joins by scanning the whole table while it is small (a few thousand rows: a
 * scan per saved group); the statement's `id = any(ids)` leads it to the primary key instead.
 */
export const jsonRows = <T extends { id: number }>(rows: readonly T[]) => ({
  rows: toJson(rows),
  ids: rows.map((row) => row.id),
});
