import { CopyPlus, MessageCircle, Users } from 'lucide-react';
import { Link } from 'react-router';
import { tidyDescription } from '@shared/bots/description';
import { purposeLabel } from '@shared/bots/purposes';
import type { SharedBot } from '@shared/contracts/shared-bots';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';

export const usersText = (n: number) =>
  n === 0 ? 'Nobody uses it yet' : n === 1 ? '1 person uses it' : `${n} people use it`;

interface SharedBotCardProps {
  bot: SharedBot;
  onAdd: () => void;
  adding: boolean;
}

/** A public bot on Explore: who shares it, what it is for, and the two things a visitor does with it. */
export function SharedBotCard({ bot, onAdd, adding }: SharedBotCardProps) {
  return (
    <Card className="flex h-full flex-col gap-4 p-5 transition-shadow duration-200 ease-out hover:shadow-md">
      <div className="flex items-start gap-3">
        <BotIcon icon={bot.icon} />
        <div className="min-w-0 flex-1">
          <h3 className="truncate leading-tight font-semibold" title={bot.name}>
            {bot.name}
          </h3>
          <p className="mt-1 truncate text-xs text-muted-foreground">by {bot.isOwner ? 'you' : bot.ownerName}</p>
        </div>
      </div>
      <p className="line-clamp-3 text-sm text-muted-foreground">{tidyDescription(bot.description)}</p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t pt-4 text-xs text-muted-foreground">
        <Badge variant="secondary">{purposeLabel(bot.purpose)}</Badge>
        <span className="inline-flex items-center gap-1.5">
          <Users className="size-3.5" aria-hidden="true" />
          {usersText(bot.usersCount)}
        </span>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Button
          asChild
          variant="secondary"
          className="bg-accent text-accent-foreground hover:bg-primary hover:text-primary-foreground"
        >
          <Link to={`/chat/${bot.id}`} aria-label={`Chat with ${bot.name}`}>
            <MessageCircle aria-hidden="true" />
            Chat
          </Link>
        </Button>
        {!bot.isOwner && (
          <PendingButton
            variant="outline"
            pending={adding}
            pendingLabel="Adding..."
            aria-label={`Add ${bot.name} to my botties`}
            onClick={onAdd}
          >
            <CopyPlus aria-hidden="true" />
            Add
          </PendingButton>
        )}
      </div>
    </Card>
  );
}
