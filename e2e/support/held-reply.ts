import type { FakeReply } from '../../tests/support/fake-llm';

/** A model answer (`plan`, to enqueue) that waits until the test calls `release`, so what shows meanwhile can be seen. */
export function held(reply: FakeReply) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    plan: async () => {
      await gate;
      return reply;
    },
    release: () => release(),
  };
}
