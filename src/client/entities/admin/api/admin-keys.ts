/** Query keys of the admin console: `all` covers everything cached about it. */
export const adminKeys = {
  all: ['admin'] as const,
  connections: () => [...adminKeys.all, 'connections'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  users: (query?: { q: string; page: number }) =>
    query ? ([...adminKeys.all, 'users', query] as const) : ([...adminKeys.all, 'users'] as const),
  invitations: () => [...adminKeys.all, 'invitations'] as const,
  usage: (range?: { from: string; to: string }) =>
    range ? ([...adminKeys.all, 'usage', range] as const) : ([...adminKeys.all, 'usage'] as const),
};
