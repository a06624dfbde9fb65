import type { Bot, BotConfig } from '@shared/contracts/bots';
import type { SharedBot } from '@shared/contracts/shared-bots';

/**
 * What the chat needs of its bot: one of the caller's own (`Bot`), or a bot shared with them, which carries its
 * owner's name and no settings screen to open.
 */
export type ChatBot = Pick<
  Bot,
  'id' | 'name' | 'description' | 'purpose' | 'icon' | 'active' | 'capabilities' | 'exampleQueries'
> & {
  /** `model` only for one's own bot: its owner is told when that model is no longer offered. */
  config: Pick<BotConfig, 'greeting' | 'model'>;
  createdAt?: string;
  /** One's own bot: the latest and the published version, for the Draft badge. */
  version?: number;
  publishedVersion?: number | null;
  /** Set for someone else's bot: the chat shows who shares it and hides owner-only actions. */
  ownerName?: string;
};

export const chatBotOf = (shared: SharedBot): ChatBot => ({
  ...shared,
  config: { greeting: shared.greeting ?? undefined },
  ownerName: shared.ownerName,
});
