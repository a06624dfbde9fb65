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
