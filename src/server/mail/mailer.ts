import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about (verify, reset); the log shows it on its own when SMTP is off. */
  link: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** SMTP when configured; otherwise each mail, links included, goes to the log so a local install still works. */
export function createMailer(options: { smtpUrl: string | undefined; from: string }, log: FastifyBaseLogger): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        // The link alone on its line, so whoever runs a local install can copy it from the terminal.
        log.info(
          { mail: { to: mail.to, subject: mail.subject } },
          `mail not sent (SMTP_URL not set): "${mail.subject}" to ${mail.to}; its link:\n${mail.link}\n`,
        );
      },
      close() {},
    };
  }
  const smtpUrl = options.smtpUrl;
  // Loaded with the first mail: most starts send none (decision 0055).
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (
        await transport
      ).sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    close: () =>
      void transport?.then(
        (opened) => opened.close(),
        () => {},
      ),
  };
}
