import { expect } from 'vitest';
import { register, tokenFor, type Account } from './auth-api';
import type { TestApp } from './test-app';

export type Person = Account & { token: string };

/** Registers an account and signs it in. */
export async function person(t: TestApp, overrides: Parameters<typeof register>[1] = {}): Promise<Person> {
  const account = await register(t, overrides);
  return { ...account, token: await tokenFor(t, account) };
}

/** Makes `who` an admin through the console, as the superadmin does. */
export async function makeAdmin(t: TestApp, superadmin: Person, who: Account) {
  const res = await t.request('PATCH', `/api/admin/users/${who.id}`, {
    token: superadmin.token,
    body: { role: 'admin' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * The three kinds of people of an instance, on a fresh one: its first account (the superadmin), an admin and an
 * ordinary user, each signed in.
 */
export async function superadminAdminAndUser(t: TestApp) {
  const superadmin = await person(t);
  const admin = await person(t);
  await makeAdmin(t, superadmin, admin);
  return { superadmin, admin, user: await person(t) };
}
