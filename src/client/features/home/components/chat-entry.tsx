import { ChevronDown, LayoutGrid, MessageCircle } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { tidyDescription } from '@shared/bots/description';
import { purposeLabel } from '@shared/bots/purposes';
import type { Bot } from '@shared/contracts/bots';
import { useBots } from '@/entities/bot/api/get-bots';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { BotsLoadError } from '@/entities/bot/ui/bots-load-error';
import { ChatPanel, FIT_UNDER_HEADING } from '@/entities/chat/ui/chat-panel';
import { NewBotButton } from '@/components/new-bot-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { usePinnedBots } from '@/entities/bot/model/use-pinned-bots';

const CARD = 'bg-card/90 p-5 backdrop-blur-sm sm:p-8';

/** What to do before a chat is possible: no bots yet, or none active. */
function NextStep({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Card className={CARD}>
      <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
      <p className="mt-2 max-w-prose text-muted-foreground">{text}</p>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

/** Active bots, the pinned ones first in their pinned order, then the rest newest first. */
function chatOptions(bots: Bot[], pinned: Bot[]): { top: Bot[]; others: Bot[] } {
  const top = pinned.filter((bot) => bot.active);
  const others = bots.filter((bot) => bot.active && !top.includes(bot));
  return { top, others };
}

/**
 * The choice is the first bot as the picker opens, then the person's: reordering pins or new bots arriving does
 * not change it. Only a bot that leaves the list (deactivated, deleted) gives way to the first.
 */
export function BotPicker({ top, others, onStart }: { top: Bot[]; others: Bot[]; onStart: (botId: number) => void }) {
  const id = useId();
  const options = [...top, ...others];
  const [chosenId, setChosenId] = useState<number | null>(() => options[0]?.id ?? null);
  const selected = options.find((bot) => bot.id === chosenId) ?? options[0]!;

  const start = (event: FormEvent) => {
    event.preventDefault();
    onStart(selected.id);
  };

  const renderOptions = (bots: Bot[]) =>
    bots.map((bot) => (
      <option key={bot.id} value={bot.id}>
        {bot.name}
      </option>
    ));

  return (
    <Card className={CARD}>
      <form onSubmit={start} className="grid max-w-2xl gap-6">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Start a conversation</h2>
          <p className="mt-1 text-muted-foreground">
            Choose one of your botties and ask it anything within its expertise.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={id}>Botty</Label>
          <div className="relative">
            <select
              id={id}
              value={selected.id}
              onChange={(event) => setChosenId(Number(event.target.value))}
              className="h-11 w-full appearance-none rounded-lg border border-input bg-background pr-10 pl-3 text-base shadow-xs transition-[border-color,box-shadow] focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none md:text-sm"
            >
              {top.length > 0 && others.length > 0 ? (
                <>
                  <optgroup label="Your Top Botties">{renderOptions(top)}</optgroup>
                  <optgroup label="All other botties">{renderOptions(others)}</optgroup>
                </>
              ) : (
                renderOptions(options)
              )}
            </select>
            <ChevronDown
              className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
          </div>
        </div>
        <div className="flex items-start gap-4 rounded-xl border bg-background/60 p-4">
          <BotIcon icon={selected.icon} size="lg" />
          <div className="min-w-0">
            <p className="font-medium wrap-anywhere">{selected.name}</p>
            <p className="text-xs text-muted-foreground">{purposeLabel(selected.purpose)}</p>
            <p className="mt-2 line-clamp-3 text-sm text-muted-foreground">{tidyDescription(selected.description)}</p>
          </div>
        </div>
        <Button type="submit" size="lg" className="sm:justify-self-start">
          <MessageCircle aria-hidden="true" />
          Start chatting
        </Button>
      </form>
    </Card>
  );
}

interface ChatEntryProps {
  /** The bot whose chat is open here, if any. */
  chatBotId: number | null;
  onOpenChat: (botId: number) => void;
  onCloseChat: () => void;
}

/** Where a conversation begins on the home screen: pick a botty, then chat with it right here. */
export function ChatEntry({ chatBotId, onOpenChat, onCloseChat }: ChatEntryProps) {
  const botsQuery = useBots();
  const bots = botsQuery.data;
  const { pinnedBots } = usePinnedBots();

  if (!bots && botsQuery.isError) {
    return (
      <Card className={CARD}>
        <BotsLoadError onRetry={() => void botsQuery.refetch()} retrying={botsQuery.isFetching} />
      </Card>
    );
  }

  if (!bots) {
    return (
      <Card className={CARD}>
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading your botties</span>
          <Skeleton className="h-6 w-1/2" />
          <Skeleton className="h-11" />
          <Skeleton className="h-24" />
        </div>
      </Card>
    );
  }

  const chatBot = bots.find((bot) => bot.id === chatBotId);
  if (chatBot) return <ChatPanel bot={chatBot} onClose={onCloseChat} fullChatLink className={FIT_UNDER_HEADING} />;

  if (bots.length === 0) {
    return (
      <NextStep
        title="Create your first botty"
        text="Botties are AI research assistants you design: a purpose, a tone and a few example questions. Make one and start chatting right here."
      >
        <NewBotButton size="lg" />
      </NextStep>
    );
  }

  const { top, others } = chatOptions(bots, pinnedBots);
  if (top.length + others.length === 0) {
    return (
      <NextStep
        title="Start a conversation"
        text="All your botties are inactive. Activate one on the dashboard to chat with it."
      >
        <Button asChild size="lg" variant="outline">
          <Link to="/dashboard">
            <LayoutGrid aria-hidden="true" />
            Go to the dashboard
          </Link>
        </Button>
      </NextStep>
    );
  }

  return <BotPicker top={top} others={others} onStart={onOpenChat} />;
}
