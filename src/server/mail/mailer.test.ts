import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logSink } from '../../../tests/support/log-sink';
import { createMailer } from './mailer';
import { passwordResetMail } from './templates';

describe('the mailer without SMTP', () => {
  it('writes the mail to the log with its link on a line of its own', async () => {
    const log = logSink();
    const link = 'http://botty.test/reset-password/abc123';
    const mailer = createMailer({ smtpUrl: undefined, from: 'Botty <botty@example.com>' }, pino(log.stream));

    await mailer.send(passwordResetMail('ada@example.com', 'ada', link));

    const [entry] = log.entries();
    expect(entry?.msg.split('\n')).toContain(link);
    expect(entry?.msg).toContain('Reset your Botty password');
    expect(entry?.mail).toEqual({ to: 'ada@example.com', subject: 'Reset your Botty password' });
  });
});
