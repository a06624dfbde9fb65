/** A LIKE pattern (used with `escape '\'`) matching text that contains `word`; `%` and `_` typed match themselves. */
export const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
