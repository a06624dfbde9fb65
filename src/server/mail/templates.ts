import { escapeHtml } from '../lib/html';
import type { Mail } from './mailer';

function layout(
  to: string,
  subject: string,
  greeting: string,
  lines: string[],
  action: { label: string; url: string },
  footer: string,
): Mail {
  const text = [greeting, '', ...lines, '', `${action.label}: ${action.url}`, '', footer, '', '— Botty'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#6d28d9;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#6b7280">Or open this link: ${escapeHtml(action.url)}</p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(footer)}</p>
<p>— Botty</p></body></html>`;
  return { to, subject, text, html, link: action.url };
}

export const verificationMail = (to: string, username: string, url: string) =>
  layout(
    to,
    'Verify your email address for Botty',
    `Hi ${username},`,
    ['Welcome to Botty! Please confirm your email address to activate your account.'],
    { label: 'Verify email address', url },
    'This link expires in 24 hours. If you did not create a Botty account, you can ignore this email.',
  );

export const passwordResetMail = (to: string, username: string, url: string) =>
  layout(
    to,
    'Reset your Botty password',
    `Hi ${username},`,
    ['Someone asked to reset the password of your Botty account. If it was you, choose a new password here:'],
    { label: 'Reset password', url },
    'This link expires in 1 hour and works once. If you did not ask for it, you can ignore this email; your password stays the same.',
  );

/** Sign-ups with a taken address get the same answer as new ones (decision 0026); the owner hears of it here. */
export const existingAccountMail = (to: string, username: string, urls: { signIn: string; reset: string }) =>
  layout(
    to,
    'Someone tried to register with your email address',
    `Hi ${username},`,
    [
      'Someone just tried to create a Botty account with this email address, but it already belongs to your account.',
      `If it was you, sign in instead. Forgot your password? Reset it here: ${urls.reset}`,
    ],
    { label: 'Sign in', url: urls.signIn },
    'If it was not you, you can ignore this email; nothing about your account has changed.',
  );

export const signInLockedMail = (to: string, username: string, resetUrl: string) =>
  layout(
    to,
    'Sign-in to your Botty account was paused',
    `Hi ${username},`,
    [
      'There were many failed attempts to sign in to your Botty account, so we paused new sign-ins to it for up to an hour.',
      'Browsers you have signed in with before can still sign in. If the attempts were not yours, your password is still safe, but you may want to choose a new one.',
    ],
    { label: 'Reset password', url: resetUrl },
    'You get this email at most once an hour while the attempts go on.',
  );

export const invitationMail = (to: string, url: string, expiresAt: string) =>
  layout(
    to,
    'You are invited to Botty',
    'Hello,',
    ['An administrator invited you to create an account on Botty, with this e-mail address.'],
    { label: 'Create your account', url },
    `The link works once and expires on ${expiresAt.slice(0, 10)} (UTC). If you were not expecting it, you can ignore this email.`,
  );
