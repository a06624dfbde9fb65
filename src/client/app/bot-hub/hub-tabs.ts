/** The hub's tabs, each a route under /bots/:id; `also` are older pages shown under the same tab. */
export const HUB_TABS = [
  { path: 'chat', label: 'Chat' },
  { path: 'configure', label: 'Configure' },
  { path: 'knowledge', label: 'Knowledge' },
  { path: 'releases', label: 'Tests & releases', also: ['versions', 'tests'] },
  { path: 'insights', label: 'Insights' },
  { path: 'widget', label: 'Share & embed' },
  { path: 'api', label: 'API' },
] as const;

export type HubTab = (typeof HUB_TABS)[number];

/** The tab an address under /bots/:id belongs to, by its first segment after the id. */
export function activeTab(pathname: string): HubTab | undefined {
  // The bare /bots/:id shows the chat.
  const segment = pathname.split('/')[3] || 'chat';
  return HUB_TABS.find(
    (tab) => tab.path === segment || ('also' in tab && (tab.also as readonly string[]).includes(segment)),
  );
}
