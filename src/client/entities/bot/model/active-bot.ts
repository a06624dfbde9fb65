import { readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';

/** Written whenever a chat opens, so /chat without a bot id can return to it (spec §2). */
export function rememberActiveBot(id: number): void {
  writeLocal(STORAGE_KEYS.activeBotId, String(id));
}

export function rememberedActiveBot(): number | undefined {
  return parseId(readLocal(STORAGE_KEYS.activeBotId));
}

/** A positive whole number from a path segment, query value or stored text; anything else is no id. */
export function parseId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
