import { type ComponentType, lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { NotFoundPage } from '@/features/layout/components/not-found-page';

const page = (load: () => Promise<ComponentType>) => lazy(async () => ({ default: await load() }));

/**
 * Each hub tab's screen, its own chunk. The router knows only `/bots/:id/:tab?`, so the first page's bundle
 * carries neither the tabs' names nor an import per tab (budget: scripts/check-bundle.ts).
 */
const TAB_PAGES: Record<string, ComponentType> = {
  chat: page(async () => (await import('@/features/chat/components/chat-page')).ChatPage),
  configure: page(async () => (await import('./configure-tab')).ConfigureTab),
  knowledge: page(async () => (await import('./knowledge-tab')).KnowledgeTab),
  releases: page(async () => (await import('./releases-tab')).ReleasesTab),
  versions: page(async () => (await import('@/features/bot-versions/components/versions-page')).VersionsPage),
  tests: page(async () => (await import('@/features/bot-tests/components/tests-page')).TestsPage),
  insights: page(async () => (await import('@/features/bot-insights/components/insights-page')).InsightsPage),
  widget: page(async () => (await import('@/features/bot-widget/components/widget-page')).WidgetPage),
  api: page(async () => (await import('./api-tab')).ApiTab),
};

/** Route /bots/:id/:tab?: the tab's screen; the bare /bots/:id is the chat. */
export function HubTab() {
  const Page = TAB_PAGES[useParams().tab ?? 'chat'];
  if (!Page) return <NotFoundPage />;
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
}
