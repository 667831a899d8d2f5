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
  /** True when mail really leaves the server (SMTP configured); false when it is only logged. */
  isDelivering: boolean;
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer when `smtpUrl` is set; otherwise each mail is written to the log. */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (!options.smtpUrl) {
    return {
      isDelivering: false,
      async send(message) {
        options.log.warn(
          { to: message.to, subject: message.subject },
          `SMTP_URL is not set, so this mail was not sent. Its text:\n${message.text}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    isDelivering: true,
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}
