import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { AdminSettings, AdminUser, Connection } from '@shared/contracts/admin';
import type { Role, User } from '@shared/contracts/auth';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { AdminPage } from '../components/admin-page';

export const SETTINGS: AdminSettings = {
  registrationMode: 'open',
  defaultModels: { chat: null, promptGeneration: null, titles: null, judge: null, embeddings: null },
  defaultLimits: {
    user: { dailyTokens: 100_000, dailyReplies: 200 },
    admin: { dailyTokens: null, dailyReplies: null },
    superadmin: { dailyTokens: null, dailyReplies: null },
  },
};

export const connection = (fields: Partial<Connection>): Connection => ({
  id: 1,
  name: 'Local Ollama',
  kind: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:11434/v1',
  hasApiKey: false,
  apiKeyLast4: null,
  allowPrivateAddress: true,
  enabledModels: [],
  readOnly: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...fields,
});

export const person = (id: number, username: string, fields: Partial<AdminUser> = {}): AdminUser => ({
  id,
  username,
  email: `${username}@example.com`,
  role: 'user',
  fullName: null,
  emailVerified: true,
  disabled: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  limits: { dailyTokens: null, dailyReplies: null },
  today: {
    tokens: 1200,
    replies: 3,
    limits: { dailyTokens: 100_000, dailyReplies: 200 },
    resetsAt: '2026-11-27T00:00:00.000Z',
  },
  ...fields,
});

/** Signed in as the login screen leaves it, with the given role. */
export const signInAs = (role: Role, id = 1): User =>
  signIn({ id, role, username: role === 'superadmin' ? 'root' : 'ada', email: 'boss@example.com' });

/** The admin console at `path`, once its page has rendered. */
export async function openAdmin(path: string) {
  const view = renderScreen(
    <Routes>
      <Route path="/admin/*" element={<AdminPage />} />
    </Routes>,
    path,
  );
  await screen.findByRole('heading', { name: 'Admin', level: 1 });
  return view;
}
