import type { Bot } from '@shared/contracts/bots';
import { BotIcon } from '@/entities/bot/ui/bot-icon';

/** Icon, name and usage of a pinned bot, as both the plain and the edit-mode list show it. */
export function PinnedBotSummary({ bot }: { bot: Bot }) {
  return (
    <span className="flex min-w-0 items-center gap-3">
      <BotIcon icon={bot.icon} size="sm" />
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium">{bot.name}</span>
        <span className="block text-xs text-muted-foreground">{`${bot.usageCount ?? 0} interactions`}</span>
      </span>
    </span>
  );
}
