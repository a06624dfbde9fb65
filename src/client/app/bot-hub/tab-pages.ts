import type { ComponentType } from 'react';

/**
 * Each hub tab's screen, its own chunk. Kept out of the router so the first page's bundle carries one import
 * for the whole hub instead of one per tab (budget: scripts/check-bundle.ts).
 */
const TAB_PAGES: Record<string, () => Promise<ComponentType>> = {
  chat: async () => (await import('@/features/chat/components/chat-page')).ChatPage,
  configure: async () => (await import('./configure-tab')).ConfigureTab,
  knowledge: async () => (await import('./knowledge-tab')).KnowledgeTab,
  releases: async () => (await import('./releases-tab')).ReleasesTab,
  versions: async () => (await import('@/features/bot-versions/components/versions-page')).VersionsPage,
  tests: async () => (await import('@/features/bot-tests/components/tests-page')).TestsPage,
  insights: async () => (await import('@/features/bot-insights/components/insights-page')).InsightsPage,
  widget: async () => (await import('@/features/bot-widget/components/widget-page')).WidgetPage,
  api: async () => (await import('./api-tab')).ApiTab,
};

/** The screen of the tab at `path` (a route under /bots/:id); the bare /bots/:id is the chat. */
export const tabPage = (path: string) => TAB_PAGES[path || 'chat']!();
