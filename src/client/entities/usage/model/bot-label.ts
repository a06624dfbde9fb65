import type { UsageTotal } from '@shared/contracts/admin';

/** How a usage total names its bot: a use without one is a draft's training preview; a nameless bot was deleted. */
export const botLabel = (total: Pick<UsageTotal, 'botId' | 'botName'>) =>
  total.botName ?? (total.botId === null ? 'No botty (drafts)' : 'Deleted botty');
