import { CopyPlus, MessageCircle, SearchX, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CAPABILITY_INFO } from '@shared/bots/capabilities';
import { tidyDescription } from '@shared/bots/description';
import { purposeLabel } from '@shared/bots/purposes';
import type { SharedBot } from '@shared/contracts/shared-bots';
import { useSharedBot } from '@/entities/bot/api/sharing';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { BotStatusBadge } from '@/entities/bot/ui/bot-status-badge';
import { PageContainer } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';
import { PageSpinner } from '@/components/ui/spinner';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usersText } from './shared-bot-card';
import { useAddCopy } from '@/entities/bot/model/use-add-copy';

function NotAvailable() {
  useDocumentTitle('Botty not found');
  return (
    <PageContainer>
      <div className="mx-auto flex max-w-md flex-col items-center rounded-xl border border-dashed px-6 py-12 text-center">
        <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
        <h1 className="mt-4 text-xl font-semibold">Botty Not Found</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          This link does not lead to a botty: it may be mistyped, or its owner stopped sharing it or made a new link.
        </p>
        <Button asChild className="mt-6">
          <Link to="/explore">Explore public botties</Link>
        </Button>
      </div>
    </PageContainer>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h2 className="text-sm font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Details({ bot, slug }: { bot: SharedBot; slug: string }) {
  useDocumentTitle(bot.name);
  const navigate = useNavigate();
  const copy = useAddCopy();
  const prompt = bot.settings?.customPrompt?.trim() || bot.settings?.systemPrompt?.trim();

  return (
    <PageContainer>
      <Card className="mx-auto grid max-w-2xl gap-6 p-5 sm:p-8">
        <div className="flex items-start gap-4">
          <BotIcon icon={bot.icon} />
          <div className="min-w-0 flex-1">
            <h1 className="text-2xl font-semibold tracking-tight break-words">{bot.name}</h1>
            <p className="mt-1 text-sm text-muted-foreground">Shared by {bot.isOwner ? 'you' : bot.ownerName}</p>
            <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <Badge variant="secondary">{purposeLabel(bot.purpose)}</Badge>
              {!bot.active && <BotStatusBadge active={false} />}
              <span className="inline-flex items-center gap-1">
                <Users className="size-3.5" aria-hidden="true" />
                {usersText(bot.usersCount)}
              </span>
            </div>
          </div>
        </div>

        <p className="text-muted-foreground">{tidyDescription(bot.description)}</p>

        <div className="flex flex-col gap-2 sm:flex-row">
          <Button disabled={!bot.active} onClick={() => void navigate(`/chat/${bot.id}`)}>
            <MessageCircle aria-hidden="true" />
            Start chat
          </Button>
          {!bot.isOwner && (
            <PendingButton
              variant="outline"
              pending={copy.isPending}
              pendingLabel="Adding..."
              onClick={() => copy.add({ slug })}
            >
              <CopyPlus aria-hidden="true" />
              Add to my botties
            </PendingButton>
          )}
        </div>
        {!bot.active && <p className="text-sm text-muted-foreground">Its owner has turned it off for now.</p>}

        {bot.greeting && (
          <Section title="Greeting">
            <p className="rounded-xl bg-muted px-4 py-3 text-sm">{bot.greeting}</p>
          </Section>
        )}
        {bot.capabilities.length > 0 && (
          <Section title="What it can do">
            <ul className="grid gap-1 text-sm">
              {bot.capabilities.map((c) => (
                <li key={c}>
                  <span className="font-medium">{CAPABILITY_INFO[c].label}</span>
                  <span className="text-muted-foreground"> — {CAPABILITY_INFO[c].description}</span>
                </li>
              ))}
            </ul>
          </Section>
        )}
        {bot.exampleQueries.length > 0 && (
          <Section title="Try asking">
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              {bot.exampleQueries.map((q) => (
                <li key={q}>{q}</li>
              ))}
            </ul>
          </Section>
        )}
        <Section title="Prompt">
          {prompt ? (
            <pre className="max-h-72 overflow-auto rounded-xl bg-muted p-4 text-xs whitespace-pre-wrap">{prompt}</pre>
          ) : (
            <p className="text-sm text-muted-foreground">
              {bot.settings
                ? 'It answers from its description and settings.'
                : 'Its owner keeps the prompt private. A copy answers from the description and settings.'}
            </p>
          )}
        </Section>
      </Card>
    </PageContainer>
  );
}

/** /b/{slug}: a bot shared by link. Opening it lets the signed-in visitor chat with the bot. */
export function SharedBotPage() {
  const { slug = '' } = useParams();
  const shared = useSharedBot(slug);
  if (shared.isError) return <NotAvailable />;
  if (!shared.data) return <PageSpinner />;
  return <Details bot={shared.data} slug={slug} />;
}
