/** PostgreSQL cannot store NUL in text and rejects lone surrogates; SQLite would store them and break exports. */
export const isStorableText = (text: string) => !text.includes('\u0000') && text.isWellFormed();

/** Model output is not the user's to fix: drop what cannot be stored instead of failing the reply. */
export const toStorableText = (text: string) =>
  isStorableText(text) ? text : text.replaceAll('\u0000', '').toWellFormed();
