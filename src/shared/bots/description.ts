/**
 * Descriptions are often written as instructions to the bot ("You are a bot that plans meals"); shown on a
 * card they read better without that lead-in. Longer alternatives come first so they win over their prefixes.
 */
const LEADING_PHRASE = new RegExp(
  String.raw`^\s*(?:` +
    String.raw`(?:you\s+are|you['’]re|i\s+am|i['’]m)\s+(?:(?:a|an)\s+(?:ai\s+)?(?:botty|bot|chatbot|assistant)\s+(?:that|who|which)\b\s*)?` +
    String.raw`|(?:a|an)\s+(?:ai\s+)?(?:botty|bot|chatbot|assistant)\s+(?:that|who|which)\b\s*` +
    String.raw`)`,
  'i',
);

/** The one misspelling spec §9 asks to correct. */
const MISSPELLED_PHILOSOPHICAL = /\bphilisophical\b/gi;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A bot description tidied for display (spec §9). */
export function tidyDescription(description: string | null | undefined): string {
  const original = (description ?? '').trim();
  const stripped = original.replace(LEADING_PHRASE, '').trim();
  const text = (stripped || original).replace(MISSPELLED_PHILOSOPHICAL, (word) =>
    word.startsWith('P') ? 'Philosophical' : 'philosophical',
  );
  return capitalise(text);
}
