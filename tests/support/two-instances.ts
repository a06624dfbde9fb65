import { anotherConnection, createTestDb } from './databases';
import { startFakeLlm } from './fake-llm';
import { redisTestSpace, TEST_REDIS_URL } from './redis';
import { startTestApp, type TestAppOptions } from './test-app';

type InstanceOptions = Omit<TestAppOptions, 'kind' | 'testDb'>;

/**
 * Two instances as behind a load balancer: one PostgreSQL schema, one Redis (under a key prefix of their own) and
 * one fake model, nothing else shared. Both get the same `options`, each then what `only` gives it (e.g. one
 * whose file runner is not running); `close` stops them all and clears the keys.
 */
export async function startTwoInstances(
  options: InstanceOptions = {},
  only: { a?: Omit<InstanceOptions, 'env'>; b?: Omit<InstanceOptions, 'env'> } = {},
) {
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
  const a = await startTestApp({ ...options, ...only.a, testDb: shared, env });
  const b = await startTestApp({ ...options, ...only.b, testDb: anotherConnection(shared), env });
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
