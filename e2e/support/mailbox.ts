import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** One captured mail. */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps every mail it receives. */
export interface Mailbox {
  port: number;
  mails: CapturedMail[];
  /** Waits for the first mail to `to` that arrives (or has arrived) and matches. */
  waitFor(to: string, options?: { subject?: RegExp; timeoutMs?: number }): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** Starts the capture server on a free port. */
export async function startMailbox(): Promise<Mailbox> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    // smtp-server's built-in certificate has expired: never offer STARTTLS.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          mails.push({
            to: recipients,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          for (const wake of [...waiters]) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string')
    throw new Error('The SMTP capture server has no port');

  return {
    port: address.port,
    mails,
    waitFor(to, options = {}) {
      const wanted = to.toLowerCase();
      const find = () =>
        mails.find(
          (m) => m.to.includes(wanted) && (!options.subject || options.subject.test(m.subject)),
        );
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `No mail to ${to} within ${options.timeoutMs ?? 15_000} ms (got ${mails.length} mails)`,
            ),
          );
        }, options.timeoutMs ?? 15_000);
        function check() {
          const mail = find();
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mail);
        }
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
