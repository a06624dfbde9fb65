export const historyKeys = {
  all: ['history'] as const,
  pages: () => [...historyKeys.all, 'pages'] as const,
  search: (q: string) => [...historyKeys.all, 'search', q] as const,
};
