import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

function decodeBody(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function header(block: string, name: string): string {
  return (
    block
      .match(new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im'))?.[1]
      ?.replace(/\r?\n[ \t]/g, ' ')
      .trim() ?? ''
  );
}

/** Just enough MIME for the mails this app sends: a subject and text/plain + text/html parts. */
function parseMail(raw: string): Pick<ReceivedMail, 'subject' | 'text' | 'html'> {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\r\n\r\n');
  const parts: Record<string, string> = {};
  const boundary = header(head, 'Content-Type').match(/boundary="?([^";]+)"?/)?.[1];
  const sections = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${head}\r\n\r\n${body}`];
  for (const section of sections) {
    const [partHead = '', ...partBody] = section.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    const type = header(partHead, 'Content-Type').split(';')[0]!.toLowerCase();
    parts[type] = decodeBody(partBody.join('\r\n\r\n').trim(), header(partHead, 'Content-Transfer-Encoding'));
  }
  return { subject: header(head, 'Subject'), text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

/** A real SMTP server on loopback that keeps what it receives, so tests can follow mailed links. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          ...parseMail(raw),
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        });
        waiters.forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /**
     * Resolves with the newest mail to `to` matching `subject` once at least `count` such mails have arrived
     * (a resent link is the second one, and only it still works).
     */
    async waitForMail(to: string, subject: RegExp, { timeoutMs = 5000, count = 1 } = {}): Promise<ReceivedMail> {
      const find = () => {
        const matching = mails.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
        return matching.length >= count ? matching.at(-1) : undefined;
      };
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const done = () => {
            waiters.delete(done);
            resolve();
          };
          waiters.add(done);
          setTimeout(done, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

/** The first link in a mail's text that points at `path` (e.g. /verify-email/). */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${path.replaceAll('/', '\\/')}\\S+`));
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}"`);
  return match[0];
}
