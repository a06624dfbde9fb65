import { History as HistoryGlyph, Lock, Search } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ConversationSummary, HighlightedText } from '@shared/contracts/chat';
import { useBots } from '@/entities/bot/api/get-bots';
import { useUsableBot } from '@/entities/bot/api/sharing';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { PageContainer, PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useHistory } from '../api/get-history';
import { useConversationSearch } from '../api/search-conversations';

const SEARCH_DEBOUNCE_MS = 300;

/** The chat page opens this conversation, scrolled to `messageId` when given. */
const chatLink = (c: ConversationSummary, messageId?: number | null) =>
  `/chat/${c.bot.id}?c=${c.id}${messageId ? `&m=${messageId}` : ''}`;

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Matched words as <mark>, everything as text: snippets are user text and never HTML. */
function Highlighted({ text }: { text: HighlightedText }) {
  return (
    <>
      {text.map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-foreground dark:bg-yellow-500/40">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/**
 * Someone else's botty that is no longer shared with the caller: its conversations stay theirs, and open
 * read-only. Only bots that are not the caller's own are asked about.
 */
function NoLongerShared({ botId }: { botId: number }) {
  const own = useBots();
  const usable = useUsableBot(botId, own.data !== undefined && !own.data.some((bot) => bot.id === botId));
  if (!usable.isError) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs">
      <Lock className="size-3" aria-hidden="true" />
      No longer shared with you
    </span>
  );
}

function ConversationRow({
  conversation,
  to,
  children,
}: {
  conversation: ConversationSummary;
  to: string;
  children?: ReactNode;
}) {
  return (
    <li>
      <Link
        to={to}
        className="flex min-w-0 gap-3 rounded-xl border p-4 transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <BotIcon icon={conversation.bot.icon} size="sm" />
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex min-w-0 items-baseline justify-between gap-2">
            <span className="truncate font-medium" title={conversation.title}>
              {conversation.title}
            </span>
            <RelativeTime date={conversation.updatedAt} className="shrink-0 text-xs text-muted-foreground" />
          </div>
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
            <span className="truncate" title={conversation.bot.name}>
              {conversation.bot.name}
            </span>
            <NoLongerShared botId={conversation.bot.id} />
          </span>
          {children}
        </div>
      </Link>
    </li>
  );
}

function ListSkeleton() {
  return (
    <div role="status" className="grid gap-3">
      <span className="sr-only">Loading conversations</span>
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} className="h-20 rounded-xl" />
      ))}
    </div>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="grid justify-items-center gap-2 rounded-xl border border-dashed p-10 text-center text-muted-foreground">
      <HistoryGlyph className="size-8" aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

function AllConversations() {
  const history = useHistory();
  if (history.isPending) return <ListSkeleton />;
  if (history.isError) return <Empty>Could not load your conversations. Please try again.</Empty>;
  const items = history.data.pages.flatMap((page) => page.items);
  if (!items.length) return <Empty>No conversations yet. Start one from a botty's chat.</Empty>;
  return (
    <div className="grid gap-4">
      <ul className="grid gap-3" aria-label="Conversations">
        {items.map((c) => (
          <ConversationRow key={c.id} conversation={c} to={chatLink(c)} />
        ))}
      </ul>
      {history.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {history.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </div>
  );
}

function SearchResults({ q }: { q: string }) {
  const search = useConversationSearch(q);
  if (search.isPending) return <ListSkeleton />;
  if (search.isError) return <Empty>Search failed. Please try again.</Empty>;
  if (!search.data.results.length) return <Empty>No conversations match “{q}”.</Empty>;
  return (
    <ul className="grid gap-3" aria-label="Search results">
      {search.data.results.map((r) => (
        <ConversationRow
          key={r.conversation.id}
          conversation={r.conversation}
          to={chatLink(r.conversation, r.messageId)}
        >
          <p className="line-clamp-3 text-sm [overflow-wrap:anywhere]">
            <Highlighted text={r.snippet} />
          </p>
        </ConversationRow>
      ))}
    </ul>
  );
}

/** Every conversation with every botty, newest first, and full-text search across them. */
export function HistoryPage() {
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  return (
    <PageContainer className="grid max-w-3xl gap-6">
      <PageHeader title="History" description="Your conversations with all your botties." />
      <div className="relative">
        <Search className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search conversations"
          placeholder="Search conversations"
          className="pl-9"
          maxLength={200}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      {q ? <SearchResults q={q} /> : <AllConversations />}
    </PageContainer>
  );
}
