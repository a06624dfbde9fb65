import { useNavigate } from 'react-router';
import { Bot as BotGlyph } from 'lucide-react';
import { useState } from 'react';
import type { Bot } from '@shared/contracts/bots';
import { useBots } from '@/entities/bot/api/get-bots';
import { BotsLoadError } from '@/entities/bot/ui/bots-load-error';
import { ChatPanel, FIT_UNDER_HEADING } from '@/entities/chat/ui/chat-panel';
import { NewBotButton } from '@/components/new-bot-button';
import { BotCardSkeletons } from '@/components/bot-card-skeletons';
import { PageContainer, PageHeader } from '@/components/page-header';
import { usePinnedBots } from '@/entities/bot/model/use-pinned-bots';
import { BotCard } from './bot-card';
import { CustomPromptDialog } from './custom-prompt-dialog';
import { DeleteBotDialog } from './delete-bot-dialog';
import { ExportBotDialog } from './export-bot-dialog';
import { ImportBotButton } from './import-bot-button';
import { RecentActivity } from './recent-activity';
import { ShareBotDialog } from './share-bot-dialog';
import { StatCards } from './stat-cards';

const GRID = 'grid gap-4 sm:grid-cols-2';

function EmptyState() {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed px-6 py-12 text-center">
      <span
        className="flex size-12 items-center justify-center rounded-2xl bg-accent text-accent-foreground"
        aria-hidden="true"
      >
        <BotGlyph className="size-6" />
      </span>
      <h3 className="mt-4 font-semibold">No botties yet</h3>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">
        A botty is an AI research assistant you shape yourself: give it a purpose, teach it with a few example
        questions, then chat with it whenever you need it.
      </p>
      <NewBotButton className="mt-6" />
    </div>
  );
}

export function DashboardPage() {
  const botsQuery = useBots();
  const bots = botsQuery.data;
  const pins = usePinnedBots();
  const [deleting, setDeleting] = useState<Bot | null>(null);
  const [editingPrompt, setEditingPrompt] = useState<Bot | null>(null);
  const [exporting, setExporting] = useState<Bot | null>(null);
  const [chatBotId, setChatBotId] = useState<number | null>(null);
  const [sharingId, setSharingId] = useState<number | null>(null);
  const navigate = useNavigate();
  // Looked up in the list, so deleting the bot (the list drops it at once) or deactivating it closes its chat.
  const chatBot = bots?.find((bot) => bot.id === chatBotId && bot.active);

  const openChat = (bot: Bot) => {
    setChatBotId(bot.id);
    window.scrollTo({ top: 0 });
  };

  // Spec §2: choosing chat opens the chat panel in place of the dashboard, and closing a chat returns to /.
  if (chatBot) {
    return (
      <PageContainer className="grid gap-6">
        <PageHeader title="Dashboard" description="Create and manage your AI research botties" />
        <ChatPanel bot={chatBot} onClose={() => void navigate('/')} fullChatLink className={FIT_UNDER_HEADING} />
      </PageContainer>
    );
  }

  return (
    <PageContainer className="grid gap-8">
      <PageHeader title="Dashboard" description="Create and manage your AI research botties" />
      <StatCards bots={bots} failed={botsQuery.isError} />

      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="your-botties-title" className="grid gap-4">
          <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
            <h2 id="your-botties-title" className="text-lg font-semibold tracking-tight">
              Your Botties
            </h2>
            <div className="flex gap-2">
              <ImportBotButton />
              <NewBotButton />
            </div>
          </div>
          {!bots && botsQuery.isError ? (
            <BotsLoadError onRetry={() => void botsQuery.refetch()} retrying={botsQuery.isFetching} />
          ) : !bots ? (
            <BotCardSkeletons
              label="Loading your botties"
              count={4}
              className={GRID}
              sublineClassName="h-4 w-16 rounded-full"
            />
          ) : bots.length === 0 ? (
            <EmptyState />
          ) : (
            <ul className={GRID}>
              {bots.map((bot) => {
                const pinned = pins.isPinned(bot.id);
                return (
                  <li key={bot.id}>
                    <BotCard
                      bot={bot}
                      pinned={pinned}
                      onTogglePin={() => (pinned ? pins.unpin(bot) : pins.pin(bot))}
                      onEditPrompt={() => setEditingPrompt(bot)}
                      onDelete={() => setDeleting(bot)}
                      onChat={() => openChat(bot)}
                      onExport={() => setExporting(bot)}
                      onShare={() => setSharingId(bot.id)}
                    />
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        <RecentActivity />
      </div>

      <DeleteBotDialog bot={deleting} onClose={() => setDeleting(null)} onDeleted={pins.forget} />
      <CustomPromptDialog bot={editingPrompt} onClose={() => setEditingPrompt(null)} />
      <ExportBotDialog bot={exporting} onClose={() => setExporting(null)} />
      {/* Looked up in the list, so the dialog always shows the saved sharing. */}
      <ShareBotDialog bot={bots?.find((bot) => bot.id === sharingId)} onClose={() => setSharingId(null)} />
    </PageContainer>
  );
}
