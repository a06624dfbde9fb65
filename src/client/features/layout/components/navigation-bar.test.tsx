import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role, User } from '@shared/contracts/auth';
import { setCurrentUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { saveSession } from '@/lib/storage';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { NavigationBar } from './navigation-bar';

function signInAs(role: Role) {
  const account: User = {
    id: 1,
    username: 'sam',
    email: 'sam@example.com',
    role,
    fullName: null,
    profileImageUrl: null,
    emailVerified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
  saveSession('token', account, false);
  setCurrentUser(queryClient, account);
}

beforeEach(() => {
  fakeServer();
});

describe('the navigation bar', () => {
  it.each(['admin', 'superadmin'] as const)(
    'offers the Admin console to the %s role, marked current on its pages',
    async (role) => {
      signInAs(role);
      renderScreen(<NavigationBar />, '/admin/people');
      const admin = await screen.findByRole('link', { name: 'Admin' });
      expect(admin.getAttribute('href')).toBe('/admin');
      expect(admin.getAttribute('aria-current')).toBe('page');
    },
  );

  it('does not offer it to anyone else', async () => {
    signInAs('user');
    renderScreen(<NavigationBar />);
    await screen.findByRole('link', { name: 'History' });
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
  });
});
