import { useMemo, useSyncExternalStore } from 'react';
import type { Bot } from '@shared/contracts/bots';
import { useBots } from '@/entities/bot/api/get-bots';
import { toast } from '@/components/ui/use-toast';
import { saveAccountPreferences } from '@/lib/preferences';
import { readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';
import {
  loadPinnedIds,
  MAX_PINNED_BOTS,
  movePinnedId,
  parsePinnedIds,
  pinId,
  pinsToStore,
  unpinId,
  type PinnedIds,
} from './pins';

/*
 * One in-memory copy of the stored pin list for the whole app, so the dashboard's menu and the home panel
 * always agree; other tabs are followed through the storage event.
 */
const listeners = new Set<() => void>();
let stored: PinnedIds | null = null;

function snapshot(): PinnedIds {
  stored ??= parsePinnedIds(readLocal(STORAGE_KEYS.pinnedBots));
  return stored;
}

function emit(): void {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent): void {
  if (event.key !== STORAGE_KEYS.pinnedBots) return;
  stored = parsePinnedIds(event.newValue);
  emit();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

function save(pins: number[]): void {
  stored = pins;
  writeLocal(STORAGE_KEYS.pinnedBots, pinsToStore(pins));
  emit();
  saveAccountPreferences();
}

const EMPTY: Bot[] = [];

/** The user's pinned bots, in their order, and the actions on them with the spec's toasts. */
export function usePinnedBots() {
  const { data: bots, isPending, isError, isFetching, refetch } = useBots();
  const storedIds = useSyncExternalStore(subscribe, snapshot);

  // Only once the bot list has arrived can stale ids be told apart from bots still loading.
  const pinnedBots = useMemo(() => {
    if (!bots) return EMPTY;
    const byId = new Map(bots.map((bot) => [bot.id, bot]));
    return loadPinnedIds(storedIds, byId.keys()).map((id) => byId.get(id)!);
  }, [bots, storedIds]);

  // Actions read the store afresh, so two in the same tick do not overwrite each other.
  const current = () =>
    loadPinnedIds(
      snapshot(),
      (bots ?? EMPTY).map((bot) => bot.id),
    );

  return {
    pinnedBots,
    isLoading: isPending,
    /** The bot list failed and nothing was loaded before: the pins cannot be told apart yet. */
    loadFailed: isError && !bots,
    retrying: isFetching,
    retry: () => void refetch(),
    isPinned: (id: number) => pinnedBots.some((bot) => bot.id === id),

    pin(bot: Bot) {
      const result = pinId(current(), bot.id);
      if (!result.ok) {
        toast({
          variant: 'destructive',
          title: 'Maximum pins reached',
          description: `You can only pin up to ${MAX_PINNED_BOTS} bots. Remove one first.`,
        });
        return;
      }
      save(result.pins);
      toast({ title: 'Bot pinned', description: 'Bot added to your top botties' });
    },

    unpin(bot: Bot) {
      save(unpinId(current(), bot.id));
      toast({ title: 'Bot unpinned', description: 'Bot removed from your top botties' });
    },

    /** After a delete: no toast, the bot is gone anyway. */
    forget(id: number) {
      save(unpinId(current(), id));
    },

    reorder(activeId: number, overId: number | null) {
      save(movePinnedId(current(), activeId, overId));
    },
  };
}
