import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { register, startCheckedApp, type Account } from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('an unexpected failure on %s', (kind) => {
  let t: TestApp;
  let account: Account;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    account = await register(t);
    // Whatever the database says about a missing table must stay in the log.
    await t.db.kysely.schema.dropTable('email_tokens').execute();
  });
  afterAll(() => t.close());

  it('answers 500 with a generic message and no database detail', async () => {
    const res = await t.request('POST', '/api/auth/forgot-password', { body: { email: account.email } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL',
      requestId: expect.any(String),
    });
  });
});
