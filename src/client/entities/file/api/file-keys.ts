/** Query keys of the file entity: `all` covers everything cached about files, `bot(id)` one bot's knowledge. */
export const fileKeys = {
  all: ['files'] as const,
  bot: (botId: number) => [...fileKeys.all, 'bot', botId] as const,
};
