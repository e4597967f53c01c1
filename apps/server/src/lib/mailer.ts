import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** Text made safe inside an HTML mail body. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the link the mail is about, logged in outbox mode so a developer can follow it */
  link?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written to <data>/outbox as an .eml file
 * and its link logged (the outbox is a development and demo convenience, never production mail).
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
  logLinks: boolean;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      mode: 'smtp',
      async send(mail) {
        await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        opts.log.info({ subject: mail.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(mail) {
      const info = await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await mkdir(opts.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = join(
        opts.outboxDir,
        `${Date.now()}-${safeTo}-${info.messageId.replace(/[^a-z0-9]/gi, '').slice(0, 12)}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      opts.log.info(
        { file, ...(opts.logLinks && mail.link ? { link: mail.link } : {}) },
        `mail written to outbox: ${mail.subject}`,
      );
    },
  };
}

/** For processes that send no mail (the command line, the demo seed): a send is a bug worth hearing about. */
export const noMailer: Mailer = {
  mode: 'outbox',
  async send() {
    throw new Error('this process sends no mail');
  },
};
