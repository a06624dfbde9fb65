/** Query keys of the bot entity: `all` covers everything cached about bots, the others one list or one bot. */
export const botKeys = {
  all: ['bots'] as const,
  list: () => [...botKeys.all, 'list'] as const,
  detail: (id: number) => [...botKeys.all, 'detail', id] as const,
};
