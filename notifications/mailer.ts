/**
 * The mailer port and its nodemailer adapter. With SMTP_URL, mail goes to that server.
 * Without it (local development), each message is printed to the log and written to the
 * outbox directory (`<DATA_DIR>/outbox/*.eml`, one RFC 822 file per message) so a developer
 * can read codes and notices without a mail server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { fallbackLogger, type Logger } from '../platform/logger.ts';
import type { RenderedEmail } from './emails.ts';

export interface Mailer {
  send(message: RenderedEmail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string | undefined;
  from: string;
  /** Where local mail is kept when there is no SMTP_URL. */
  outboxDir: string;
  /** Where the outbox mailer prints each message (the process's logger). */
  log?: Logger;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      send: async (message) => {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      },
      close: () => transport.close(),
    };
  }
  return createOutboxMailer(options);
}

function createOutboxMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const log = (options.log ?? fallbackLogger).child({ component: 'mail' });
  let sequence = 0;
  return {
    send: async (message) => {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      sequence += 1;
      const file = join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${sequence}.eml`,
      );
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Development only (production refuses to start without SMTP_URL): the text may hold a code.
      log.info(
        { outboxFile: file, to: message.to, subject: message.subject, text: message.text },
        `no SMTP_URL: mail kept in ${file}`,
      );
    },
    close: () => transport.close(),
  };
}
