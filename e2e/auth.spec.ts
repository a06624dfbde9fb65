import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logSink } from '../tests/support/log-sink';
import { linkIn } from '../tests/support/smtp-receiver';
import { startTestApp } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, holdRequests, newPage, snap, toastWith, VIEWPORTS } from './support/browser';

const suite = appInBrowser(() => startTestApp({ smtp: true }), { owner: false });

beforeAll(async () => {
  // The first account administers the instance and skips verification; these tests need ordinary users.
  await suite.t.request('POST', '/api/auth/register', {
    body: { username: 'instance_owner', email: 'owner@example.com', password: 'owner-password-1' },
  });
});

const pathOf = (link: string) => new URL(link).pathname;

async function register(page: Page, username: string, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL('**/login');
}

async function signIn(page: Page, username: string, password: string, rememberMe: boolean) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (rememberMe) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const storedToken = (page: Page) =>
  page.evaluate(() => ({ local: localStorage.getItem('authToken'), session: sessionStorage.getItem('authToken') }));

describe('accounts in the browser', () => {
  it('register → verify by mail → sign in (remembered) → first-asked page → profile → password → logout', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    const username = 'maria_e2e';
    const email = 'maria@example.com';

    await page.goto('/settings');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/settings');
    // The login rules load with the first check rather than with the page (bundle budget): same messages.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('Username is required').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true);

    await page.goto('/register');
    await expect.poll(() => page.getByRole('heading', { name: 'Create an account' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('Username must be at least 3 characters').isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('longenough');
    await page.getByLabel('Confirm Password').fill('different1');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('Passwords do not match').isVisible()).toBe(true);

    await register(page, username, email, 'first-password-1');
    await expect.poll(() => toastWith(page, 'Registration successful').isVisible()).toBe(true);
    expect(await toastWith(page, 'Please check your email to verify your account').isVisible()).toBe(true);
    await page.evaluate(() => sessionStorage.setItem('redirectAfterLogin', '/settings'));

    await signIn(page, username, 'first-password-1', true);
    await expect.poll(() => page.getByText('Email verification required').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText(email).first().isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect.poll(() => page.getByText('Verification email sent').first().isVisible()).toBe(true);

    const mail = await suite.t.smtp!.waitForMail(email, /verify/i, { count: 2 });
    await page.goto(pathOf(linkIn(mail, '/verify-email/')));
    await page
      .getByRole('button', { name: 'Log in' })
      .or(page.getByRole('link', { name: 'Log in' }))
      .click();
    await page.waitForURL('**/login');

    await signIn(page, username, 'first-password-1', true);
    await page.waitForURL('**/settings');
    // Raised before the full page load that follows signing in, and shown by the page it lands on.
    await expect.poll(() => toastWith(page, 'Login successful').isVisible()).toBe(true);
    expect(await toastWith(page, 'Welcome back to Botty!').isVisible()).toBe(true);
    expect(await storedToken(page)).toEqual({ local: expect.any(String), session: null });
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBeNull();

    await page.getByLabel('Full Name').fill('Maria Example');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Profile updated').first().isVisible()).toBe(true);
    const me = await suite.t.request('GET', '/api/auth/user', { token: (await storedToken(page)).local! });
    expect(me.body.fullName).toBe('Maria Example');

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByLabel('Current Password').fill('first-password-1');
    await page.getByLabel('New Password', { exact: true }).fill('second-password-2');
    await page.getByLabel('Confirm New Password').fill('does-not-match');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText("Passwords don't match").first().isVisible()).toBe(true);
    await page.getByLabel('Confirm New Password').fill('second-password-2');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText('Password updated').first().isVisible()).toBe(true);
    expect(await page.getByLabel('Current Password').inputValue()).toBe('');

    await page.evaluate(() => localStorage.removeItem('authToken'));
    await page.evaluate(() => sessionStorage.clear());
    await page.goto('/login');
    await signIn(page, username, 'second-password-2', false);
    await page.waitForURL((url) => url.pathname === '/');
    expect(await storedToken(page)).toEqual({ local: null, session: expect.any(String) });

    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('button', { name: /menu/i }).click();
    await page
      .getByRole('menuitem', { name: 'Logout' })
      .or(page.getByRole('button', { name: 'Logout' }))
      .first()
      .click();
    await page.waitForURL('**/login');
    await expect.poll(() => toastWith(page, 'Logged out').isVisible()).toBe(true);
    expect(await storedToken(page)).toEqual({ local: null, session: null });
    await close();
  });

  it('forgot password → mailed link → reset → sign in with the new password', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    const email = 'reset_e2e@example.com';
    await suite.t.request('POST', '/api/auth/register', {
      body: { username: 'reset_e2e', email, password: 'old-password-1' },
    });
    const verify = await suite.t.smtp!.waitForMail(email, /verify/i);
    await suite.t.request('GET', `/api/auth${pathOf(linkIn(verify, '/verify-email/'))}`);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: /send|reset/i }).click();
    await expect
      .poll(() => page.getByText("If an account exists with that email, we've sent a password reset link.").isVisible())
      .toBe(true);

    const mail = await suite.t.smtp!.waitForMail(email, /reset/i);
    await page.goto(pathOf(linkIn(mail, '/reset-password/')));
    await page
      .getByLabel('New Password', { exact: true })
      .or(page.getByLabel('Password', { exact: true }))
      .fill('new-password-2');
    await page.getByLabel(/Confirm/).fill('new-password-2');
    await page.getByRole('button', { name: /reset/i }).click();
    await expect.poll(() => page.getByText('Password reset successful').first().isVisible()).toBe(true);
    await page
      .getByRole('button', { name: 'Go to login' })
      .or(page.getByRole('link', { name: 'Go to login' }))
      .click();
    await page.waitForURL('**/login');
    await signIn(page, 'reset_e2e', 'new-password-2', false);
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/reset-password');
    await expect.poll(() => page.getByText('Invalid reset link').first().isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: 'Request a new reset link' })
          .or(page.getByRole('link', { name: 'Request a new reset link' }))
          .isVisible(),
      )
      .toBe(true);
    await close();
  });

  it('says what went wrong: taken names, a wrong password, bad mailed links, a wrong current password; then sends a signed-in person on', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    const email = 'oops_e2e@example.com';
    const account = { username: 'oops_e2e', email, password: 'right-password-1' };
    await suite.t.request('POST', '/api/auth/register', { body: account });
    const verify = await suite.t.smtp!.waitForMail(email, /verify/i);
    await suite.t.request('GET', `/api/auth${pathOf(linkIn(verify, '/verify-email/'))}`);
    // What the server answers each mistake with, as the toasts must show it.
    const reasonOf = async (method: 'POST' | 'PATCH', url: string, body: object, token?: string) => {
      const res = await suite.t.request(method, url, { body, token });
      expect(res.status).toBeGreaterThanOrEqual(400);
      return (res.body as { message: string }).message;
    };
    const toastSays = async (title: string, description: string) => {
      await expect.poll(() => toastWith(page, title).isVisible()).toBe(true);
      expect(await toastWith(page, description).isVisible()).toBe(true);
    };

    await page.goto('/register');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill('someone-else@example.com');
    await page.getByLabel('Password', { exact: true }).fill('another-password-1');
    await page.getByLabel('Confirm Password').fill('another-password-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await toastSays(
      'Registration failed',
      await reasonOf('POST', '/api/auth/register', {
        username: account.username,
        email: 'someone-else@example.com',
        password: 'another-password-1',
      }),
    );
    expect(new URL(page.url()).pathname).toBe('/register');

    await page.goto('/login');
    await signIn(page, account.username, 'wrong-password-1', false);
    await toastSays('Login failed', 'Invalid username or password. Please try again.');

    await page.goto('/verify-email');
    await expect
      .poll(() => page.getByText('Invalid verification link. Please check your email and try again.').isVisible())
      .toBe(true);

    await page.goto('/verify-email/not-a-real-token');
    await toastSays('Verification failed', 'The verification link may have expired or is invalid.');
    const verifyReason = (await suite.t.request('GET', '/api/auth/verify-email/not-a-real-token')).body as {
      message: string;
    };
    await expect.poll(() => page.getByText(verifyReason.message, { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Return to login' }).isVisible()).toBe(true);

    await page.goto('/reset-password/not-a-real-token');
    const newPassword = page
      .getByLabel('New Password', { exact: true })
      .or(page.getByLabel('Password', { exact: true }));
    await newPassword.fill('new-password-3');
    await page.getByLabel(/Confirm/).fill('new-password-4');
    await page.getByRole('button', { name: /reset/i }).click();
    await expect.poll(() => page.getByText('Passwords do not match').isVisible()).toBe(true);
    await page.getByLabel(/Confirm/).fill('new-password-3');
    await page.getByRole('button', { name: /reset/i }).click();
    await toastSays(
      'Password reset failed',
      await reasonOf('POST', '/api/auth/reset-password', { token: 'not-a-real-token', newPassword: 'new-password-3' }),
    );

    await page.goto('/login');
    let release = await holdRequests(page, '**/api/auth/login', 'POST');
    await signIn(page, account.username, account.password, false);
    await expect.poll(() => page.getByRole('button', { name: 'Signing in...' }).isVisible()).toBe(true);
    release();
    await page.waitForURL((url) => url.pathname === '/');
    await page.unrouteAll();
    const token = (await storedToken(page)).session!;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByLabel('Current Password').fill('not-my-password-1');
    await page.getByLabel('New Password', { exact: true }).fill('second-password-2');
    await page.getByLabel('Confirm New Password').fill('second-password-2');
    release = await holdRequests(page, '**/api/auth/change-password', 'POST');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Updating...' }).isVisible()).toBe(true);
    release();
    await toastSays(
      'Password change failed',
      await reasonOf(
        'POST',
        '/api/auth/change-password',
        { currentPassword: 'not-my-password-1', newPassword: 'second-password-2' },
        token,
      ),
    );

    await page.getByRole('tab', { name: 'Profile' }).click();
    // The notifications box starts ticked and is the client's own: the profile saved leaves it out.
    expect(await page.getByLabel('Enable email notifications').isChecked()).toBe(true);
    const saved = page.waitForRequest((r) => r.url().endsWith('/api/auth/profile') && r.method() === 'PATCH');
    await page.getByLabel('Username').fill('instance_owner');
    release = await holdRequests(page, '**/api/auth/profile', 'PATCH');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Saving...' }).isVisible()).toBe(true);
    release();
    expect(Object.keys((await saved).postDataJSON() as object).sort()).toEqual(
      ['fullName', 'profileImageUrl', 'username'].sort(),
    );
    await toastSays(
      'Update failed',
      await reasonOf('PATCH', '/api/auth/profile', { fullName: '', username: 'instance_owner' }, token),
    );
    expect((await suite.t.request('GET', '/api/auth/user', { token })).body.username).toBe(account.username);

    await page.getByRole('tab', { name: 'Account' }).click();
    for (const text of [
      'Your account is active and in good standing',
      'Beta Free Account',
      'All features included during beta',
      'Data & Privacy',
    ])
      await expect.poll(() => page.getByText(text, { exact: true }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/dashboard');

    // Signed in already: the account screens send the person on.
    await page.goto('/register');
    await page.waitForURL('**/dashboard');
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await close();
  });

  it('says when a verification mail could not be sent, and answers a reset request the same whatever happened', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    const account = { username: 'unsent_e2e', email: 'unsent@example.com', password: 'unsent-password-1' };
    await suite.t.request('POST', '/api/auth/register', { body: account });
    // The server's mail going wrong, as the browser sees it (the SMTP receiver here never refuses).
    await page.route('**/api/auth/resend-verification', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'Mail is down' }),
    );
    await page.goto('/login');
    await signIn(page, account.username, account.password, false);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect.poll(() => toastWith(page, 'Failed to send verification email').isVisible()).toBe(true);
    expect(await toastWith(page, 'Please try again later.').isVisible()).toBe(true);

    // Whether the request reached the server or not, the page says the same: it never tells who has an account.
    await page.route('**/api/auth/forgot-password', (route) => route.abort('connectionreset'));
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: /send|reset/i }).click();
    await expect
      .poll(() => page.getByText("If an account exists with that email, we've sent a password reset link.").isVisible())
      .toBe(true);
    await close();
  });

  it('describes itself to browsers and link previews, and shows the 404 page for unknown paths', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.goto('/');
    expect(await page.title()).toContain('Create your own AI research botties');
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[property="og:title"]')).toBe('Botty · Create your own AI research botties');
    expect(await meta('meta[property="og:type"]')).toBe('website');
    expect(await meta('meta[property="og:description"]')).toContain('AI research assistants');
    expect(await meta('meta[name="description"]')).toContain('AI research assistants');
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).toBe(true);
    await close();
  });

  it('every account screen is accessible and looks right at phone and desktop widths', async () => {
    const token = (
      await suite.t.request('POST', '/api/auth/login', {
        body: { username: 'instance_owner', password: 'owner-password-1' },
      })
    ).body.token as string;
    const screens = [
      '/login',
      '/register',
      '/forgot-password',
      '/reset-password/some-token',
      '/reset-password',
      '/verify-email',
      '/missing-page',
      '/settings',
    ];
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { page, close } = await newPage(suite.browser, suite.t.url, viewport);
      await page.goto('/login');
      await page.evaluate((tok) => localStorage.setItem('authToken', tok), token);
      for (const path of screens) {
        if (path === '/login' || path === '/register') await page.evaluate(() => localStorage.removeItem('authToken'));
        else await page.evaluate((tok) => localStorage.setItem('authToken', tok), token);
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await page.waitForSelector('main');
        await expectAccessible(page, `${path} at ${name}`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${path} scrolls sideways`,
        ).toBe(true);
        await snap(page, `auth-${name}${path.replaceAll('/', '-')}`);
      }
      await close();
    }
    // Sixteen axe runs (eight screens at two widths) take most of a minute on a loaded 2-core machine.
  }, 120_000);
});

describe('the first account of a fresh public server', () => {
  const log = logSink();
  const fresh = appInBrowser(
    () => startTestApp({ env: { APP_URL: 'https://botty.example.com', LOG_LEVEL: 'info' }, logStream: log.stream }),
    { owner: false },
  );

  it('asks for the setup code from the log, refuses a wrong one, and no longer asks once the account exists', async () => {
    const code = log.entries().find((entry) => entry.setupCode)!.setupCode as string;
    const { page, close } = await newPage(fresh.browser, fresh.t.url);
    const fill = async (setupCode: string) => {
      await page.getByLabel('Setup code').fill(setupCode);
      await page.getByLabel('Username').fill('first_owner');
      await page.getByLabel('Email').fill('first@example.com');
      await page.getByLabel('Password', { exact: true }).fill('owner-password-1');
      await page.getByLabel('Confirm Password').fill('owner-password-1');
      await page.getByRole('button', { name: 'Register' }).click();
    };
    await page.goto('/register');
    await page.getByLabel('Setup code').waitFor();
    await expectAccessible(page, '/register with a setup code');
    await fill('WRONG-CODE');
    await page.getByRole('alert').filter({ hasText: 'The setup code is not right' }).first().waitFor();
    await fill(code);
    await page.waitForURL('**/login');
    await page.goto('/register');
    await page.getByLabel('Username').waitFor();
    expect(await page.getByLabel('Setup code').count()).toBe(0);
    await close();
  });
});
