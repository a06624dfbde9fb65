import { CAPABILITIES, CAPABILITY_INFO, type Capability } from '@shared/bots/capabilities';

/** Whether the file matches a picker `accept` list (extensions and exact types), as the picker itself judges. */
const matches = (file: File, accept: string) =>
  accept
    .split(',')
    .some((token) => (token.startsWith('.') ? file.name.toLowerCase().endsWith(token) : file.type === token));

/** The capability that lets a file of this type into a chat, or null when none does. */
function capabilityFor(file: File): Capability | null {
  return CAPABILITIES.find((c) => matches(file, CAPABILITY_INFO[c].accepts?.picker ?? '')) ?? null;
}

const WHAT_IT_CANNOT: Partial<Record<Capability, string>> = {
  image_understanding: 'look at images',
  document_analysis: 'read documents',
};

/**
 * Files pasted or dropped into the composer, which (unlike the picker) can be anything: the ones the bot can
 * take, and why the others were left out, so nothing is dropped without a word.
 */
export function sortAttachable(
  files: readonly File[],
  bot: { name: string; capabilities: readonly Capability[] },
): { accepted: File[]; reasons: string[] } {
  const accepted: File[] = [];
  const missing = new Set<Capability>();
  const unreadable: string[] = [];
  for (const file of files) {
    const needed = capabilityFor(file);
    if (needed === null) unreadable.push(file.name);
    else if (bot.capabilities.includes(needed)) accepted.push(file);
    else missing.add(needed);
  }
  const reasons = [...missing].map(
    (c) =>
      `${bot.name} can't ${WHAT_IT_CANNOT[c] ?? 'use these files'}: turn on ${CAPABILITY_INFO[c].label} in its settings.`,
  );
  if (unreadable.length > 0) reasons.push(`${unreadable.join(', ')}: this type of file can't be attached.`);
  return { accepted, reasons };
}
