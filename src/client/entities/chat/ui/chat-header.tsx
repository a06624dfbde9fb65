import { Settings2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ChatBot } from '../model/chat-bot';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { BotStatusBadge } from '@/entities/bot/ui/bot-status-badge';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';

/** The owner's latest version is not the one everyone else gets (decision 0043). */
const isDraft = (bot: ChatBot) =>
  !bot.ownerName &&
  bot.publishedVersion !== undefined &&
  bot.publishedVersion !== null &&
  bot.version !== bot.publishedVersion;

interface ChatHeaderProps {
  bot: ChatBot;
  onClose: () => void;
  /** Controls the surrounding screen adds before settings and close. */
  actions?: ReactNode;
  /** The model that wrote the latest reply, as its server names it; nothing when no reply says. */
  model?: string | null;
}

export function ChatHeader({ bot, onClose, actions, model }: ChatHeaderProps) {
  return (
    <header className="flex items-center gap-3 border-b px-3 py-2.5 sm:px-4">
      <BotIcon icon={bot.icon} />
      <div className="min-w-0 flex-1">
        <h2 className="truncate leading-tight font-semibold" title={bot.name}>
          {/* The owner's way to the bot hub (decision 0045); a visitor has none. */}
          {bot.ownerName ? (
            bot.name
          ) : (
            <Link
              to={`/bots/${bot.id}/releases`}
              className="hover:underline"
              title={`Open the botty hub of ${bot.name}`}
            >
              {bot.name}
            </Link>
          )}
        </h2>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          {/* A visitor learns only what stops them: an inactive bot; "Active" is the owner's switch. */}
          {(!bot.ownerName || !bot.active) && <BotStatusBadge active={bot.active} />}
          {isDraft(bot) && (
            <Badge variant="outline" title={`People you share this botty with get version ${bot.publishedVersion}`}>
              Draft
              <span className="sr-only">: people you share this botty with get version {bot.publishedVersion}</span>
            </Badge>
          )}
          {bot.ownerName ? (
            <span>Shared by {bot.ownerName}</span>
          ) : (
            bot.createdAt && (
              <span>
                Created <RelativeTime date={bot.createdAt} />
              </span>
            )
          )}
          {model && (
            <span className="max-w-full truncate" title={`The latest reply was written by ${model}`}>
              Model: {model}
            </span>
          )}
        </p>
      </div>
      <div className="-mr-1.5 flex shrink-0 items-center">
        {actions}
        {/* Decisions §1: the settings button opens this bot in the editor; only its owner has one. */}
        {!bot.ownerName && (
          <WithTooltip label="Bot settings">
            <Button asChild variant="ghost" size="icon">
              <Link to={`/create-bot?edit=${bot.id}`} aria-label="Bot settings">
                <Settings2 aria-hidden="true" />
              </Link>
            </Button>
          </WithTooltip>
        )}
        <WithTooltip label="Close chat">
          <Button variant="ghost" size="icon" aria-label="Close chat" onClick={onClose}>
            <X aria-hidden="true" />
          </Button>
        </WithTooltip>
      </div>
    </header>
  );
}
