import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer';
import { passwordResetMail } from './templates';

describe('the mailer without SMTP', () => {
  it('writes the mail to the log with its link on a line of its own', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const link = 'http://botty.test/reset-password/abc123';
    const mailer = createMailer({ smtpUrl: undefined, from: 'Botty <botty@example.com>' }, pino(sink));

    await mailer.send(passwordResetMail('ada@example.com', 'ada', link));

    const entry = JSON.parse(lines.join('')) as { msg: string; mail: unknown };
    expect(entry.msg.split('\n')).toContain(link);
    expect(entry.msg).toContain('Reset your Botty password');
    expect(entry.mail).toEqual({ to: 'ada@example.com', subject: 'Reset your Botty password' });
  });
});
