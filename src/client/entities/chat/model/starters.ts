import type { Bot } from '@shared/contracts/bots';

/** Enough to start from without crowding out the greeting. */
const STARTERS_MAX = 4;

/** The bot's example queries as the starters of an empty conversation (issue 9): trimmed, no blanks or repeats. */
export function startersOf(bot: Pick<Bot, 'exampleQueries'>): string[] {
  const queries = bot.exampleQueries.map((query) => query.trim()).filter(Boolean);
  return [...new Set(queries)].slice(0, STARTERS_MAX);
}
