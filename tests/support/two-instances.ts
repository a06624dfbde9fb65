import { anotherConnection, createTestDb } from './databases';
import { startFakeLlm } from './fake-llm';
import { redisTestSpace, TEST_REDIS_URL } from './redis';
import { startTestApp, type TestAppOptions } from './test-app';

/**
 * Two instances as behind a load balancer: one PostgreSQL schema, one Redis (under a key prefix of their own) and
 * one fake model, nothing else shared. Both get the same `options`; `close` stops them all and clears the keys.
 */
export async function startTwoInstances(options: Omit<TestAppOptions, 'kind' | 'testDb'> = {}) {
  const space = redisTestSpace();
  const fake = await startFakeLlm();
  const shared = await createTestDb('postgres');
  const env = {
    LLM_BASE_URL: fake.baseUrl,
    LLM_MODEL: fake.model,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: space.prefix,
    ...options.env,
  };
  const a = await startTestApp({ ...options, testDb: shared, env });
  const b = await startTestApp({ ...options, testDb: anotherConnection(shared), env });
  return {
    fake,
    a,
    b,
    async close() {
      await b.close();
      await a.close();
      await fake.close();
      await space.cleanup();
    },
  };
}

export type TwoInstances = Awaited<ReturnType<typeof startTwoInstances>>;
