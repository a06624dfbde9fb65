import { messageText, startFakeLlm } from '../../tests/support/fake-llm';

/**
 * The fake OpenAI-compatible model in a process of its own, so its work does not count against the client or
 * the server being measured. A request whose last message contains `holdMarker` gets one token and is then
 * held open, as a slow model would.
 */
const { tokens, intervalMs, holdMarker } = JSON.parse(process.argv[2]!) as {
  tokens: number;
  intervalMs: number;
  holdMarker: string;
};
const text = Array.from({ length: tokens }, (_, i) => `word${i}`).join(' ');

const fake = await startFakeLlm({
  reply: (request) =>
    messageText(request.body.messages.at(-1)).includes(holdMarker)
      ? { text, hangAfterChunks: 1 }
      : { text, chunkDelayMs: intervalMs },
});
// Nothing reads what it records, and a long bench would otherwise keep every request.
setInterval(() => (fake.requests.length = 0), 1000).unref();
process.send!({ baseUrl: fake.baseUrl });
process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
