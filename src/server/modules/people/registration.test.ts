import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type RegistrationMode } from '@shared/contracts/admin';
import { person, type Person } from '../../../../tests/support/admin-api';
import {
  expectError,
  manualClock,
  newAccount,
  nextMail,
  register,
  startCheckedApp,
  tokenFor,
  type Account,
} from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { linkIn } from '../../../../tests/support/smtp-receiver';
import type { TestApp } from '../../../../tests/support/test-app';
import { hashToken } from '../../lib/tokens';

const DAY = 24 * 60 * 60 * 1000;
const INVITED_SUBJECT = /invited to Botty/;

describe.each(databaseKinds)('registration modes and invitations, on %s', (kind) => {
  let t: TestApp;
  let superadmin: Person;
  const clock = manualClock();
  beforeAll(async () => {
    t = await startCheckedApp({ kind, clock });
    // An instance whose settings were closed before it had an account (e.g. restored from a backup).
    await t.db.kysely
      .insertInto('app_settings')
      .values({ key: 'registrationMode', value: JSON.stringify('closed'), updated_at: clock.now().toISOString() })
      .execute();
  });
  afterAll(() => t.close());

  const registration = async () => (await t.request('GET', '/api/auth/registration')).body;
  const setMode = async (registrationMode: RegistrationMode) => {
    const res = await t.request('PATCH', '/api/admin/settings', {
      token: superadmin.token,
      body: { registrationMode },
    });
    expect(res.status).toBe(200);
  };
  const signUp = (body: Record<string, unknown> = {}) =>
    t.request('POST', '/api/auth/register', { body: { ...newAccount(), ...body } });
  const invite = async (body: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/api/admin/invitations', { token: superadmin.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { ...res.body, token: new URL(res.body.url).searchParams.get('invitation')! };
  };

  it('lets the first account of an empty instance register whatever the mode, then keeps closed closed', async () => {
    // The page shows the form: the first account registers whatever the mode.
    expect(await registration()).toEqual({ mode: 'open' });
    superadmin = await person(t);
    expect(await registration()).toEqual({ mode: 'closed' });
    const me = await t.request('GET', '/api/auth/user', { token: superadmin.token });
    expect(me.body.role).toBe('superadmin');

    expectError(await signUp(), 403, ADMIN_MESSAGES.registrationClosed);
    // A valid invitation does not open a closed instance.
    expectError(await signUp({ invitation: (await invite()).token }), 403, ADMIN_MESSAGES.registrationClosed);
    await setMode('open');
    expect(await registration()).toEqual({ mode: 'open' });
    expect((await signUp()).status).toBe(201);
  });

  it('asks for an invitation in invitation mode and refuses an unknown one', async () => {
    await setMode('invitation');
    expect(await registration()).toEqual({ mode: 'invitation' });
    expectError(await signUp(), 403, ADMIN_MESSAGES.invitationRequired);
    expectError(await signUp({ invitation: 'made-up' }), 403, ADMIN_MESSAGES.invitationInvalid);
  });

  it('makes a link shown once, stored hashed, that registers one account once', async () => {
    await setMode('invitation');
    const invitation = await invite({ expiresInDays: 3 });
    expect(invitation).toMatchObject({
      email: null,
      usedAt: null,
      url: `http://botty.test/register?invitation=${invitation.token}`,
      expiresAt: new Date(clock.now().getTime() + 3 * DAY).toISOString(),
    });
    const row = await t.db.kysely
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(invitation.token));
    expect(JSON.stringify(row)).not.toContain(invitation.token);

    const listed = await t.request('GET', '/api/admin/invitations', { token: superadmin.token });
    expect(listed.body.invitations[0]).toEqual({
      id: invitation.id,
      email: null,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      usedAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(invitation.token);

    const first = await signUp({ invitation: invitation.token });
    expect(first.status).toBe(201);
    expect(first.body.user.role).toBe('user');
    expectError(await signUp({ invitation: invitation.token }), 403, ADMIN_MESSAGES.invitationInvalid);
    const used = await t.db.kysely
      .selectFrom('invitations')
      .select(['used_at', 'used_by'])
      .where('id', '=', invitation.id)
      .executeTakeFirstOrThrow();
    expect(used).toEqual({ used_at: expect.any(String), used_by: first.body.user.id });
  });

  it('lets only one of several simultaneous sign-ups use an invitation', async () => {
    await setMode('invitation');
    const { token } = await invite();
    const answers = await Promise.all(Array.from({ length: 4 }, () => signUp({ invitation: token })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
    for (const refused of answers.filter((r) => r.status === 403)) {
      expect(refused.body.message).toBe(ADMIN_MESSAGES.invitationInvalid);
    }
  });

  it('leaves an invitation unused when its sign-up fails, so it can be used again', async () => {
    await setMode('invitation');
    const { token } = await invite();
    const taken = newAccount();
    expect((await signUp({ ...taken, invitation: (await invite()).token })).status).toBe(201);
    expect((await signUp({ username: taken.username, invitation: token })).status).toBe(409);
    expect((await signUp({ invitation: token })).status).toBe(201);
  });

  it('expires an invitation after its days', async () => {
    await setMode('invitation');
    const soon = await invite({ expiresInDays: 1 });
    const later = await invite({ expiresInDays: 1 });
    clock.advance(DAY - 1000);
    expect((await signUp({ invitation: soon.token })).status).toBe(201);
    clock.advance(2000);
    // The superadmin's own session (a day long) ended too.
    superadmin.token = await tokenFor(t, superadmin);
    expectError(await signUp({ invitation: later.token }), 403, ADMIN_MESSAGES.invitationInvalid);
  });

  it('revokes a deleted invitation', async () => {
    await setMode('invitation');
    const { id, token } = await invite();
    const deleted = await t.request('DELETE', `/api/admin/invitations/${id}`, { token: superadmin.token });
    expect(deleted.body.message).toBe(ADMIN_MESSAGES.invitationDeleted);
    expectError(await signUp({ invitation: token }), 403, ADMIN_MESSAGES.invitationInvalid);
    expectError(
      await t.request('DELETE', `/api/admin/invitations/${id}`, { token: superadmin.token }),
      404,
      ADMIN_MESSAGES.invitationNotFound,
    );
  });

  it('refuses invitation lifetimes outside 1 to 30 days', async () => {
    for (const expiresInDays of [0, 31, 1.5]) {
      const res = await t.request('POST', '/api/admin/invitations', {
        token: superadmin.token,
        body: { expiresInDays },
      });
      expect(res.status).toBe(400);
    }
  });
});

describe.each(databaseKinds)('invitations for an address, with e-mail verification on %s', (kind) => {
  let t: TestApp;
  let superadmin: Person;
  let existing: Account;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, smtp: true });
    superadmin = await person(t);
    existing = await register(t);
    await t.request('PATCH', '/api/admin/settings', {
      token: superadmin.token,
      body: { registrationMode: 'invitation' },
    });
  });
  afterAll(() => t.close());

  it('mails the link to the address and accepts only that address', async () => {
    const account = newAccount();
    const created = await t.request('POST', '/api/admin/invitations', {
      token: superadmin.token,
      body: { email: account.email.toUpperCase() },
    });
    expect(created.status).toBe(201);
    expect(created.body.email).toBe(account.email);
    const mail = await nextMail(t, account.email, INVITED_SUBJECT, 0);
    const link = linkIn(mail, '/register');
    expect(link).toBe(created.body.url);
    const invitation = new URL(link).searchParams.get('invitation')!;

    const other = newAccount();
    expectError(
      await t.request('POST', '/api/auth/register', { body: { ...other, invitation } }),
      403,
      ADMIN_MESSAGES.invitationOtherEmail,
    );
    const res = await t.request('POST', '/api/auth/register', { body: { ...account, invitation } });
    expect(res.status).toBe(201);
    expect(res.body.needsVerification).toBe(true);
  });

  it('refuses a bad invitation alike whether or not the address has an account (decision 0026)', async () => {
    const forTaken = await t.request('POST', '/api/auth/register', {
      body: { ...newAccount(), email: existing.email, invitation: 'made-up' },
    });
    const forNew = await t.request('POST', '/api/auth/register', { body: { ...newAccount(), invitation: 'made-up' } });
    expectError(forTaken, 403, ADMIN_MESSAGES.invitationInvalid);
    expectError(forNew, 403, ADMIN_MESSAGES.invitationInvalid);
  });

  it('answers a valid invitation with a taken address as a new sign-up, and leaves the invitation unused', async () => {
    const created = await t.request('POST', '/api/admin/invitations', { token: superadmin.token, body: {} });
    const invitation = new URL(created.body.url).searchParams.get('invitation')!;
    const forTaken = await t.request('POST', '/api/auth/register', {
      body: { ...newAccount(), email: existing.email, invitation },
    });
    expect(forTaken.status).toBe(201);
    expect(forTaken.body).toEqual({ message: expect.any(String), needsVerification: true });
    const forNew = await t.request('POST', '/api/auth/register', { body: { ...newAccount(), invitation } });
    expect(forNew.status).toBe(201);
    expect(forNew.body).toEqual(forTaken.body);
  });
});
