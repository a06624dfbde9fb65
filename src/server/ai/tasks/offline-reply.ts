export const offlineReplyText = (botName: string) =>
  [
    `I'm ${botName}, but no language model is connected to this Botty server yet, so I can't answer your message. This is an automatic reply.`,
    "To connect one, set **LLM_BASE_URL** and **LLM_MODEL** in the server's environment and restart it. For a local Ollama: `LLM_BASE_URL=http://127.0.0.1:11434/v1` and `LLM_MODEL=llama3.2`.",
    'OpenAI and Anthropic work too: set **LLM_PROVIDER** (`openai` or `anthropic`) and **LLM_API_KEY**.',
  ].join('\n\n');

/** Enough pieces for a client to show the reply arriving the same way a model's does. */
const OFFLINE_WORDS_PER_CHUNK = 8;

/** Hands `text` to `onText` in pieces, as a model would, until done or `signal` aborted. */
export async function offlineReply(text: string, signal: AbortSignal, onText: (text: string) => void) {
  const words = text.match(/\S+\s*/g) ?? [];
  for (let i = 0; i < words.length && !signal.aborted; i += OFFLINE_WORDS_PER_CHUNK) {
    onText(words.slice(i, i + OFFLINE_WORDS_PER_CHUNK).join(''));
    // Yield between pieces so a stop request can be heard, as with a model.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
