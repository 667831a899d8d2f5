import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps every mail it receives. */
export interface Mailbox {
  url: string;
  mails: ParsedMail[];
  /** The first mail to `to` (whose subject matches `subject`, when given) that arrives (or has arrived), within `timeoutMs`. */
  waitForMail(to: string, timeoutMs?: number, subject?: RegExp): Promise<ParsedMail>;
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
    async waitForMail(to, timeoutMs = 10_000, subject) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find(
          (candidate) =>
            recipients(candidate).includes(to.toLowerCase()) &&
            (!subject || subject.test(candidate.subject ?? '')),
        );
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The subject of the password-reset mail. */
export const RESET_SUBJECT = /^Reset your Adloom password$/;
/** The subject of the address verification mail. */
export const VERIFY_SUBJECT = /^Verify your Adloom email address$/;

/** The link to `appUrl` under `/<path>/<token>` in a mail's text. */
function findLink(text: string | undefined, appUrl: string, path: string): URL {
  const match = new RegExp(
    `${appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${path}/[A-Za-z0-9_-]+`,
  ).exec(text ?? '');
  if (!match) throw new Error(`no ${path} link in ${text}`);
  return new URL(match[0]);
}

/** The password-reset link to `appUrl` in a mail's text. */
export function findResetLink(text: string | undefined, appUrl: string): URL {
  return findLink(text, appUrl, 'reset');
}

/** The address verification link to `appUrl` in a mail's text. */
export function findVerifyLink(text: string | undefined, appUrl: string): URL {
  return findLink(text, appUrl, 'verify-email');
}
