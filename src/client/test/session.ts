import type { User } from '@shared/contracts/auth';
import { setCurrentUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { saveSession } from '@/lib/storage';

/** Signed in as the login screen leaves it: the session saved and the account known to the app's queries. */
export function signIn(fields: Partial<User> = {}): User {
  const account: User = {
    id: 1,
    username: 'sam',
    email: 'sam@example.com',
    role: 'user',
    fullName: null,
    profileImageUrl: null,
    emailVerified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
  saveSession('token', account, false);
  setCurrentUser(queryClient, account);
  return account;
}
