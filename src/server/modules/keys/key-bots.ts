import type { Bot } from '@shared/contracts/bots';
import { findOwnedBotOf, listBots, type BotsDeps } from '../bots/bots.service';
import type { ApiKeyRow } from './keys.repository';

/**
 * The active bots an API key reaches: the one bot it is bound to, or every bot of its owner. The scope of `/v1`'s
 * models and `/mcp`'s tools.
 */
export async function botsOfKey(deps: BotsDeps, key: ApiKeyRow): Promise<Bot[]> {
  const bots =
    key.bot_id === null
      ? await listBots(deps, key.user_id)
      : [await findOwnedBotOf(deps.db.kysely, key.user_id, key.bot_id)].flatMap((bot) => bot ?? []);
  return bots.filter((bot) => bot.active);
}
