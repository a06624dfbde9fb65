/** The statement broke a unique constraint or index (PostgreSQL's 23505, SQLite's message): a conflict, not a fault. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23505' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed'));
}
