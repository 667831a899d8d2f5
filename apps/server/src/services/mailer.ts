import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/** One outgoing mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail. */
export interface Mailer {
  /** True when mail really leaves the server (SMTP configured); false when it goes to the outbox folder. */
  isDelivering: boolean;
  send(message: MailMessage): Promise<void>;
}

/** The folder under DATA_DIR that keeps the mails of a server without SMTP_URL. */
export const OUTBOX_DIR_NAME = 'outbox';

/** A mail as an RFC 5322 message (.eml) with a UTF-8 text body. */
export function formatEml(from: string, message: MailMessage, date: Date): string {
  // Header values from our own code, but a newline must never start a new header.
  const header = (value: string) => value.replace(/[\r\n]+/g, ' ');
  return [
    `From: ${header(from)}`,
    `To: ${header(message.to)}`,
    `Subject: ${header(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    message.text.replace(/\r?\n/g, '\r\n'),
  ].join('\r\n');
}

/** SMTP_URL without the `logger` and `debug` settings that make nodemailer print mails to the console. */
export function withoutMailLogging(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  url.searchParams.delete('logger');
  url.searchParams.delete('debug');
  return url.toString();
}

/**
 * SMTP through nodemailer when `smtpUrl` is set. Otherwise (never in production: the server
 * refuses to start without SMTP_URL there) each mail is written, readable by the server's user
 * only, to `outboxDir` as <time>-<n>.eml, and the log says where: mails carry reset links,
 * which must never reach a log.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  /** In production nodemailer never logs: its debug log prints whole mails, reset links included. */
  isProduction?: boolean;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (!options.smtpUrl) {
    let count = 0;
    return {
      isDelivering: false,
      async send(message) {
        const now = new Date();
        count += 1;
        const file = join(
          options.outboxDir,
          `${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}-${count}.eml`,
        );
        mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
        writeFileSync(file, formatEml(options.from, message, now), { mode: 0o600, flag: 'wx' });
        options.log.warn(`SMTP_URL is not set: mail written to ${file}`);
      },
    };
  }
  const transport = nodemailer.createTransport(
    options.isProduction ? withoutMailLogging(options.smtpUrl) : options.smtpUrl,
  );
  return {
    isDelivering: true,
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}
