import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminUser, Invitation } from '@shared/contracts/admin';
import { fakeServer } from '@/test/fake-server';
import { openAdmin, person, SETTINGS, signInAs } from '../test/admin-fixtures';

let server: ReturnType<typeof fakeServer>;
let people: AdminUser[];
let invitations: Invitation[];

beforeEach(() => {
  server = fakeServer();
  people = [
    person(1, 'root', { role: 'superadmin' }),
    person(2, 'ada', { role: 'admin' }),
    person(3, 'bob', { emailVerified: false }),
  ];
  invitations = [];
  server.json('GET', '/api/admin/users', (request) => {
    const q = new URL(request.path, 'http://localhost').searchParams.get('q') ?? '';
    const users = people.filter((p) => p.username.includes(q));
    return { users, total: users.length, page: 1, pageSize: 25 };
  });
  server.json('PATCH', '/api/admin/users/3', (request) => {
    people[2] = { ...people[2]!, ...(request.body as Partial<AdminUser>) };
    return people[2];
  });
  server.json('GET', '/api/admin/settings', SETTINGS);
  server.json('GET', '/api/admin/invitations', () => ({ invitations }));
});

const patches = () => server.sent('PATCH', '/api/admin/users/3').map((r) => r.body);

describe('Admin → People', () => {
  it('lets a superadmin change a role and disable an account', async () => {
    signInAs('superadmin');
    const { user } = await openAdmin('/admin/people');

    const role = await screen.findByRole('combobox', { name: 'Role of bob' });
    expect(screen.queryByRole('combobox', { name: 'Role of root' })).toBeNull();
    await user.selectOptions(role, 'admin');
    await waitFor(() => expect(patches()).toEqual([{ role: 'admin' }]));
    expect(await screen.findByText('Role changed')).toBeTruthy();

    const disable = screen.getByRole('switch', { name: 'Disable bob' });
    expect(screen.getByRole('switch', { name: 'Disable root' })).toHaveProperty('disabled', true);
    await user.click(disable);
    await waitFor(() => expect(patches()).toEqual([{ role: 'admin' }, { disabled: true }]));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Disable bob' }).getAttribute('aria-checked')).toBe('true'),
    );
  });

  it('shows roles as text to an admin, searches, and sets one person’s limits', async () => {
    signInAs('admin', 2);
    const { user } = await openAdmin('/admin/people');

    await screen.findByText('bob@example.com');
    expect(screen.queryByRole('combobox', { name: /Role of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete ada' })).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), 'bo');
    await waitFor(() => expect(screen.queryByText('ada@example.com')).toBeNull());
    expect(server.sent('GET', '/api/admin/users?page=1&pageSize=25&q=bo')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Limits of bob' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Empty: the role’s default (100,000).')).toBeTruthy();
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Daily tokens' }), '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(patches()).toEqual([{ limits: { dailyTokens: 5000, dailyReplies: null } }]));
  });

  it('deletes an account only once its username is typed', async () => {
    signInAs('superadmin');
    server.json('DELETE', '/api/admin/users/3', { message: 'Deleted' });
    const { user } = await openAdmin('/admin/people');

    await user.click(await screen.findByRole('button', { name: 'Delete bob' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Type bob to confirm');
    expect(server.sent('DELETE', '/api/admin/users/3')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Type the username to confirm' }), 'bob');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(server.sent('DELETE', '/api/admin/users/3')).toHaveLength(1));
  });

  it('resends the verification e-mail of an unverified account', async () => {
    signInAs('admin', 2);
    server.json('POST', '/api/admin/users/3/resend-verification', { message: 'Verification e-mail sent' });
    const { user } = await openAdmin('/admin/people');

    await user.click(await screen.findByRole('button', { name: 'Resend verification to bob' }));
    await waitFor(() => expect(server.sent('POST', '/api/admin/users/3/resend-verification')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Resend verification to ada' })).toBeNull();
  });

  it('changes the registration mode', async () => {
    signInAs('admin', 2);
    server.json('PATCH', '/api/admin/settings', (request) => ({ ...SETTINGS, ...(request.body as object) }));
    const { user } = await openAdmin('/admin/people');

    await user.click(await screen.findByRole('radio', { name: /Invitation only/ }));
    await waitFor(() =>
      expect(server.sent('PATCH', '/api/admin/settings')[0]?.body).toEqual({ registrationMode: 'invitation' }),
    );
  });

  it('creates an invitation and shows its link once, then lists and revokes it', async () => {
    signInAs('admin', 2);
    const made: Invitation = {
      id: 9,
      email: 'new@example.com',
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      usedAt: null,
    };
    server.json('POST', '/api/admin/invitations', () => {
      invitations = [made];
      return { ...made, url: 'http://localhost/register?invitation=secret-token' };
    });
    server.json('DELETE', '/api/admin/invitations/9', { message: 'Revoked' });
    const { user } = await openAdmin('/admin/people');

    await user.type(await screen.findByRole('textbox', { name: 'E-mail (optional)' }), 'new@example.com');
    const days = screen.getByRole('spinbutton', { name: 'Expires in (days)' });
    await user.clear(days);
    await user.type(days, '3');
    await user.click(screen.getByRole('button', { name: 'Create invitation' }));

    const link = await screen.findByRole('textbox', { name: 'Invitation link' });
    expect(link).toHaveProperty('value', 'http://localhost/register?invitation=secret-token');
    expect(document.activeElement).toBe(link);
    expect(screen.getByRole('button', { name: 'Copy invitation link' })).toBeTruthy();
    expect(server.sent('POST', '/api/admin/invitations')[0]?.body).toEqual({
      email: 'new@example.com',
      expiresInDays: 3,
    });

    const list = await screen.findByRole('list', { name: 'Invitations' });
    expect(within(list).getByText('pending')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Invitation link' })).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Revoke' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() => expect(server.sent('DELETE', '/api/admin/invitations/9')).toHaveLength(1));
  });
});
