import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@shared/contracts/auth';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { NavigationBar } from './navigation-bar';

const signInAs = (role: Role) => signIn({ role });

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
