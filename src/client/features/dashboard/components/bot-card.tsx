import {
  EllipsisVertical,
  FileDown,
  LayoutGrid,
  MessageCircle,
  Pencil,
  Pin,
  PinOff,
  Power,
  PowerOff,
  ScrollText,
  Share2,
  Sparkles,
  Trash2,
} from 'lucide-react';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { tidyDescription } from '@shared/bots/description';
import type { Bot } from '@shared/contracts/bots';
import { useUsableBot } from '@/entities/bot/api/sharing';
import { useUpdateBot } from '@/entities/bot/api/update-bot';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { BotStatusBadge } from '@/entities/bot/ui/bot-status-badge';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { othersText } from './share-bot-dialog';

interface BotCardProps {
  bot: Bot;
  pinned: boolean;
  onTogglePin: () => void;
  onEditPrompt: () => void;
  onDelete: () => void;
  onChat: () => void;
  onExport: () => void;
  onShare: () => void;
}

const SHARED_LABELS = { link: 'Shared by link', public: 'Public' } as const;

/** How many people besides the owner use a shared bot (asked only for shared bots). */
function SharedUsers({ botId }: { botId: number }) {
  const { data } = useUsableBot(botId);
  if (!data) return null;
  return <p>{othersText(data.usersCount)}</p>;
}

function useSetActive(bot: Bot) {
  const update = useUpdateBot();
  const setActive = (active: boolean) =>
    update.mutate(
      { id: bot.id, changes: { active } },
      {
        onSuccess: () => toast({ title: active ? 'Botty activated' : 'Botty deactivated' }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error updating bot',
            description: serverMessage(error) ?? 'There was a problem updating the bot.',
          }),
      },
    );
  return { setActive, isPending: update.isPending };
}

export function BotCard({ bot, pinned, onTogglePin, onEditPrompt, onDelete, onChat, onShare, onExport }: BotCardProps) {
  const navigate = useNavigate();
  const { setActive, isPending } = useSetActive(bot);
  // A dialog chosen in the menu opens once the menu has handed focus back to its button, so the dialog
  // returns focus there when it closes (opened at once, it returned focus to the vanished menu item: the page).
  const pendingDialog = useRef<(() => void) | null>(null);
  const afterMenu = (open: () => void) => () => {
    pendingDialog.current = open;
  };
  const openDialog = () => {
    pendingDialog.current?.();
    pendingDialog.current = null;
  };

  return (
    <Card className="flex h-full flex-col gap-4 p-5 transition-shadow duration-200 ease-out hover:shadow-md">
      <div className="flex items-start gap-3">
        <BotIcon icon={bot.icon} />
        <div className="min-w-0 flex-1">
          <h3 className="truncate leading-tight font-semibold" title={bot.name}>
            {/* The bot hub (decision 0045): everything about this bot, one tab each. */}
            <Link to={`/bots/${bot.id}`} className="hover:underline" title={`Open the botty hub of ${bot.name}`}>
              {bot.name}
            </Link>
          </h3>
          <div className="mt-1.5 flex flex-wrap items-center gap-2">
            <BotStatusBadge active={bot.active} />
            {bot.sharing.visibility !== 'private' && (
              <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                <Share2 className="size-3" aria-hidden="true" />
                {SHARED_LABELS[bot.sharing.visibility]}
              </span>
            )}
            {pinned && (
              <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                <Pin className="size-3" aria-hidden="true" />
                Pinned
              </span>
            )}
          </div>
        </div>
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" className="-mt-1.5 -mr-2" aria-label={`Actions for ${bot.name}`}>
              <EllipsisVertical aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" onCloseAutoFocus={openDialog}>
            <DropdownMenuItem onSelect={() => void navigate(`/bots/${bot.id}`)}>
              <LayoutGrid aria-hidden="true" />
              Open botty hub
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => void navigate(`/create-bot?edit=${bot.id}`)}>
              <Pencil aria-hidden="true" />
              Edit Botty
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={afterMenu(onEditPrompt)}>
              <ScrollText aria-hidden="true" />
              Edit Custom Prompt
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={afterMenu(onShare)}>
              <Share2 aria-hidden="true" />
              Share Botty
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={onTogglePin}>
              {pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
              {pinned ? 'Unpin from Top Botties' : 'Pin to Top Botties'}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={afterMenu(onExport)}>
              <FileDown aria-hidden="true" />
              Export Botty
            </DropdownMenuItem>
            {bot.active && (
              <DropdownMenuItem onSelect={() => setActive(false)}>
                <PowerOff aria-hidden="true" />
                Deactivate
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={afterMenu(onDelete)}>
              <Trash2 aria-hidden="true" />
              Delete Botty
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>

      <p className="line-clamp-3 text-sm text-muted-foreground">{tidyDescription(bot.description)}</p>

      {bot.config.customPrompt && (
        <p className="inline-flex items-center gap-1.5 text-xs font-medium text-primary">
          <Sparkles className="size-3.5" aria-hidden="true" />
          Custom prompt configured
        </p>
      )}

      <div className="mt-auto grid gap-1 border-t pt-4 text-xs text-muted-foreground">
        <p>{`Used: ${bot.usageCount ?? 0} times`}</p>
        {bot.sharing.visibility !== 'private' && <SharedUsers botId={bot.id} />}
        <p>Last used: {bot.lastUsed ? <RelativeTime date={bot.lastUsed} /> : 'Never'}</p>
      </div>

      {bot.active ? (
        // A soft accent: on a grid of cards, a full-strength button on each would drown the page's one primary action.
        <Button
          variant="secondary"
          className="bg-accent text-accent-foreground hover:bg-primary hover:text-primary-foreground"
          onClick={onChat}
        >
          <MessageCircle aria-hidden="true" />
          Chat
        </Button>
      ) : (
        <Button variant="outline" disabled={isPending} onClick={() => setActive(true)}>
          {isPending ? <Spinner className="size-4" label="Activating" /> : <Power aria-hidden="true" />}
          Activate
        </Button>
      )}
    </Card>
  );
}
