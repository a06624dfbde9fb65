import { useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { useBot } from '@/entities/bot/api/get-bot';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { cn } from '@/lib/cn';
import { activeTab, HUB_TABS } from './hub-tabs';

/**
 * Route /bots/:id/*: one page per bot, its screens as tabs that are routes of their own (a tab's address can
 * be shared and reloaded). Each tab's screen is its own chunk and keeps its own h1; the hub only names the bot.
 */
export function BotHubPage() {
  const id = Number(useParams().id);
  const { pathname } = useLocation();
  const bot = useBot(id);
  const current = activeTab(pathname);
  const currentLink = useRef<HTMLAnchorElement>(null);

  // On a phone the current tab may sit beyond the strip's edge: it is scrolled into sight, the page is not moved.
  useEffect(() => {
    currentLink.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [current]);

  return (
    <div className="grid min-w-0">
      <div className="mx-auto grid w-full max-w-6xl min-w-0 gap-3 px-4 pt-4 sm:px-6 sm:pt-6">
        <div className="flex min-w-0 items-center gap-3">
          {bot.data && <BotIcon icon={bot.data.icon} />}
          <div className="grid min-w-0">
            <p className="truncate text-lg font-semibold" title={bot.data?.name}>
              {bot.data?.name ?? 'Botty'}
            </p>
            {bot.data && (
              <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                {bot.data.publishedVersion === null
                  ? `Version ${bot.data.version}, not published yet`
                  : `Published: version ${bot.data.publishedVersion}`}
                {bot.data.publishedVersion !== null && bot.data.version !== bot.data.publishedVersion && (
                  <Badge variant="secondary">Draft: version {bot.data.version}</Badge>
                )}
              </p>
            )}
          </div>
        </div>
        {/* On a phone the tabs scroll sideways inside their strip; the page itself does not. */}
        <nav aria-label="Botty hub" className="-mx-4 min-w-0 overflow-x-auto border-b px-4 sm:-mx-6 sm:px-6">
          <ul className="flex w-max gap-1">
            {HUB_TABS.map((tab) => {
              const active = tab === current;
              return (
                <li key={tab.path}>
                  <Link
                    ref={active ? currentLink : undefined}
                    to={`/bots/${id}/${tab.path}`}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'inline-flex h-11 items-center border-b-2 px-3 text-sm font-medium whitespace-nowrap transition-colors',
                      active
                        ? 'border-primary text-foreground'
                        : 'border-transparent text-muted-foreground hover:text-foreground',
                    )}
                  >
                    {tab.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
