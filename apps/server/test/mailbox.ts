import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps every mail it receives. */
export interface Mailbox {
  url: string;
  mails: ParsedMail[];
  /** The first mail to `to` that arrives (or has arrived), within `timeoutMs`. */
  waitForMail(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((address) => address.value.map((entry) => (entry.address ?? '').toLowerCase()));
}

/** Starts the mailbox on a free port of 127.0.0.1. */
export async function startMailbox(): Promise<Mailbox> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    // smtp-server's built-in certificate has expired: no STARTTLS on loopback.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((candidate) => recipients(candidate).includes(to.toLowerCase()));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The password-reset link to `appUrl` in a mail's text. */
export function findResetLink(text: string | undefined, appUrl: string): URL {
  const match = new RegExp(
    `${appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/reset/[A-Za-z0-9_-]+`,
  ).exec(text ?? '');
  if (!match) throw new Error(`no reset link in ${text}`);
  return new URL(match[0]);
}
