import { ArrowLeft, ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { EMBED_DAILY_CAP_MAX } from '@shared/contracts/bot-sharing';
import type { Bot } from '@shared/contracts/bots';
import type { WidgetConversation } from '@shared/contracts/widget';
import { useBot } from '@/entities/bot/api/get-bot';
import { CopyButton } from '@/entities/chat/ui/copy-button';
import { PageContainer, PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { formatCount } from '@/lib/format-count';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { SaveRow } from './save-row';
import { useSaveWidgetSettings, useWidgetConversations, useWidgetMessages } from '../api/widget';
import { WidgetAppearanceSection } from './widget-appearance';
import { LinkButton } from '@/components/link-button';

/**
 * Per bot (route /bots/:id/widget, decision 0018): where the bot's chat bubble may appear, how many questions
 * its visitors may ask a day, how it looks (decision 0028), the snippet to paste, and what visitors asked.
 */
export function WidgetPage() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);

  return (
    <PageContainer className="grid max-w-4xl gap-6">
      <PageHeader
        title={bot.data ? `Widget for ${bot.data.name}` : 'Widget'}
        description="Put a chat bubble that talks to your botty on your own website."
        actions={
          <LinkButton to={`/create-bot?edit=${botId}`} icon={ArrowLeft}>
            Edit Botty
          </LinkButton>
        }
      />
      {bot.isError ? (
        <p role="alert" className="text-destructive">
          This botty could not be loaded.
        </p>
      ) : !bot.data ? (
        <Skeleton className="h-96" />
      ) : (
        <>
          <Settings key={bot.data.id} bot={bot.data} />
          <Section title="Appearance">
            <WidgetAppearanceSection key={bot.data.id} bot={bot.data} />
          </Section>
          <Snippet botId={bot.data.id} />
          <Conversations botId={bot.data.id} botName={bot.data.name} />
        </>
      )}
    </PageContainer>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3 rounded-xl border p-4 sm:p-5">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Settings({ bot }: { bot: Bot }) {
  const [sites, setSites] = useState(bot.sharing.embedOrigins.join('\n'));
  const [cap, setCap] = useState(String(bot.sharing.embedDailyCap));
  const save = useSaveWidgetSettings(bot.id);
  const error = save.isError ? (serverMessage(save.error) ?? 'The settings could not be saved.') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const embedOrigins = sites
      .split(/[\s,]+/)
      .map((site) => site.trim())
      .filter(Boolean);
    save.mutate(
      { embedOrigins, embedDailyCap: Number(cap) },
      {
        onSuccess: (saved) => {
          setSites(saved.sharing.embedOrigins.join('\n'));
          toast({ title: 'Widget settings saved' });
        },
      },
    );
  };

  return (
    <Section title="Settings">
      {bot.sharing.visibility === 'private' && (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          This botty is private, so its widget answers nobody yet. Share it by link or make it public to turn the widget
          on.
        </p>
      )}
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="widget-sites">Allowed sites</Label>
          <Textarea
            id="widget-sites"
            value={sites}
            onChange={(event) => setSites(event.target.value)}
            placeholder="https://www.example.com"
            aria-describedby="widget-sites-hint"
            className="min-h-20 font-mono"
          />
          <p id="widget-sites-hint" className="text-sm text-muted-foreground">
            One site per line, as its address starts: scheme, host and port if any (https://shop.example.com). The
            bubble is refused anywhere else.
          </p>
        </div>
        <div className="grid gap-2 sm:max-w-xs">
          <Label htmlFor="widget-cap">Questions per day</Label>
          <Input
            id="widget-cap"
            type="number"
            inputMode="numeric"
            min={0}
            max={EMBED_DAILY_CAP_MAX}
            value={cap}
            onChange={(event) => setCap(event.target.value)}
            aria-describedby="widget-cap-hint"
          />
          <p id="widget-cap-hint" className="text-sm text-muted-foreground">
            All visitors together, counted from midnight UTC.
          </p>
        </div>
        <SaveRow error={error} pending={save.isPending} label="Save widget settings" />
      </form>
    </Section>
  );
}

function Snippet({ botId }: { botId: number }) {
  const snippet = `<script src="${window.location.origin}/embed.js" data-bot="${botId}" async></script>`;
  return (
    <Section title="Add it to your site">
      <p className="text-sm text-muted-foreground">Paste this just before the closing &lt;/body&gt; tag.</p>
      <div className="flex items-start gap-2 rounded-lg bg-muted p-3">
        <code aria-label="Embed snippet" className="min-w-0 flex-1 font-mono text-sm break-all">
          {snippet}
        </code>
        <CopyButton text={() => snippet} label="Copy snippet" />
      </div>
    </Section>
  );
}

function Conversations({ botId, botName }: { botId: number; botName: string }) {
  const list = useWidgetConversations(botId);
  return (
    <Section title="Widget conversations">
      {list.isError ? (
        <p role="alert" className="text-destructive">
          The widget conversations could not be loaded.
        </p>
      ) : !list.data ? (
        <Skeleton className="h-24" />
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            {formatCount(list.data.questionsToday)} of {formatCount(list.data.dailyCap)} questions asked today.
          </p>
          {list.data.conversations.length === 0 ? (
            <p className="text-sm text-muted-foreground">No visitor has asked anything yet.</p>
          ) : (
            <ul aria-label="Widget conversations" className="grid gap-2">
              {list.data.conversations.map((conversation) => (
                <ConversationItem key={conversation.id} botId={botId} botName={botName} conversation={conversation} />
              ))}
            </ul>
          )}
        </>
      )}
    </Section>
  );
}

interface ConversationItemProps {
  botId: number;
  botName: string;
  conversation: WidgetConversation;
}

function ConversationItem({ botId, botName, conversation }: ConversationItemProps) {
  const [open, setOpen] = useState(false);
  const messages = useWidgetMessages(botId, conversation.id, open);
  const panelId = useId();
  return (
    <li className="rounded-lg border">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 rounded-lg p-3 text-left hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {open ? (
          <ChevronDown aria-hidden="true" className="size-4" />
        ) : (
          <ChevronRight aria-hidden="true" className="size-4" />
        )}
        <span className="grid min-w-0 flex-1 gap-0.5 sm:flex sm:items-baseline sm:gap-3">
          <span className="min-w-0 truncate font-medium sm:flex-1">{conversation.title}</span>
          <span className="shrink-0 text-sm text-muted-foreground">
            {conversation.messageCount} messages · <RelativeTime date={conversation.updatedAt} />
          </span>
        </span>
      </button>
      {open && (
        <div id={panelId} className="border-t p-3">
          {messages.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The messages could not be loaded.
            </p>
          ) : !messages.data ? (
            <Skeleton className="h-16" />
          ) : (
            <ol className="grid gap-3" aria-label={`Messages of ${conversation.title}`}>
              {messages.data.map((message) => (
                <li key={message.id} className="grid gap-1">
                  <span className="text-xs font-semibold text-muted-foreground uppercase">
                    {message.role === 'user' ? 'Visitor' : botName}
                  </span>
                  <p className="text-sm whitespace-pre-wrap">{message.content}</p>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </li>
  );
}
