import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatBot } from './chat-bot';
import type { Conversation } from '@shared/contracts/chat';
import { useCreateConversation } from '@/entities/chat/api/create-conversation';
import { serverMessage } from '@/lib/request';

/**
 * Spec §4: opening the chat for a bot creates one conversation, and again when the bot changes, unless the
 * caller chose an existing one. The ref keeps StrictMode's second effect run from creating a second one.
 */
export function useStartConversation(
  bot: ChatBot,
  chosenId: number | undefined,
  onStarted?: (conversation: Conversation) => void,
) {
  const { mutate, error } = useCreateConversation();
  const startedFor = useRef<number | null>(null);
  const [started, setStarted] = useState<Conversation | null>(null);
  // The caller's latest callback, without restarting anything when its identity changes.
  const onStartedRef = useRef(onStarted);
  useLayoutEffect(() => {
    onStartedRef.current = onStarted;
  });

  const start = useCallback(
    (botId: number) => {
      startedFor.current = botId;
      mutate(
        { botId },
        {
          onSuccess: (conversation) => {
            setStarted(conversation);
            onStartedRef.current?.(conversation);
          },
        },
      );
    },
    [mutate],
  );

  const wanted = chosenId === undefined && bot.active;
  useEffect(() => {
    if (chosenId !== undefined) {
      // The chosen conversation takes over; should it go away later (deleted), a new one is started again.
      startedFor.current = null;
      setStarted(null);
    } else if (bot.active && startedFor.current !== bot.id) {
      start(bot.id);
    }
  }, [chosenId, bot.active, bot.id, start]);

  return {
    conversationId: chosenId ?? (started?.botId === bot.id ? started.id : undefined),
    error: wanted && error ? (serverMessage(error) ?? 'The conversation could not be started.') : null,
    retry: () => start(bot.id),
  };
}
