import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { allowConsoleError } from '@/test/console';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/auth/setup', { setupCodeRequired: false });
});

function open(path: string) {
  return renderScreen(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/login" element={<LoginPage />} />
    </Routes>,
    path,
  );
}

async function fillRegistration(user: UserEvent) {
  await user.type(await screen.findByRole('textbox', { name: 'Username' }), 'robin');
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'robin@example.com');
  await user.type(screen.getByLabelText('Password'), 'Long enough 1');
  await user.type(screen.getByLabelText('Confirm Password'), 'Long enough 1');
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('registration modes', () => {
  it('closed: says so instead of the form and leads to sign-in', async () => {
    server.json('GET', '/api/auth/registration', { mode: 'closed' });
    const { user } = open('/register');
    expect(await screen.findByText(ADMIN_MESSAGES.registrationClosed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Register' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Botty' })).toBeTruthy();
  });

  it('invitation only: asks for the link when there is none', async () => {
    server.json('GET', '/api/auth/registration', { mode: 'invitation' });
    open('/register');
    expect(await screen.findByText(ADMIN_MESSAGES.invitationRequired)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Username' })).toBeNull();
  });

  it("invitation only: sends the link's token, and shows the server's refusal in the form", async () => {
    allowConsoleError();
    server.json('GET', '/api/auth/registration', { mode: 'invitation' });
    server.json('POST', '/api/auth/register', { message: ADMIN_MESSAGES.invitationInvalid }, 403);
    const { user } = open('/register?invitation=tok3n');
    await fillRegistration(user);

    expect((await screen.findByRole('alert')).textContent).toBe(ADMIN_MESSAGES.invitationInvalid);
    expect(server.sent('POST', '/api/auth/register')[0]?.body).toMatchObject({
      username: 'robin',
      email: 'robin@example.com',
      invitation: 'tok3n',
    });
  });

  it('open: signs up without an invitation', async () => {
    server.json('GET', '/api/auth/registration', { mode: 'open' });
    server.json('POST', '/api/auth/register', { message: 'Registered', needsVerification: false }, 201);
    const { user } = open('/register');
    await fillRegistration(user);

    expect(await screen.findByRole('heading', { name: 'Sign in to Botty' })).toBeTruthy();
    expect(server.sent('POST', '/api/auth/register')[0]?.body).not.toHaveProperty('invitation');
  });

  it("sign-in shows a disabled account's refusal in the form", async () => {
    allowConsoleError();
    server.json('POST', '/api/auth/login', { message: ADMIN_MESSAGES.accountDisabled }, 403);
    const { user } = open('/login');
    await user.type(screen.getByRole('textbox', { name: 'Username' }), 'robin');
    await user.type(screen.getByLabelText('Password'), 'Long enough 1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByRole('alert')).textContent).toBe(ADMIN_MESSAGES.accountDisabled);
  });
});
