import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useraction } from '@portal/contract';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { ApiClient, freshDatabase, seedUser, testConfig } from '../test/harness.ts';
import { manualClock } from './clock.ts';
import { createMailer } from './mailer.ts';

const log = pino({ level: 'silent' });

/** A real SMTP listener on loopback that keeps every message it receives. */
async function smtpListener() {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, ''),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('mailer', () => {
  let smtp: Awaited<ReturnType<typeof smtpListener>>;
  let database: Database;
  beforeAll(async () => {
    smtp = await smtpListener();
    database = await freshDatabase();
  });
  afterAll(async () => {
    await smtp.close();
    await database.close();
  });

  it('sends through SMTP when SMTP_URL is set', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'Portal <portal@example.test>',
      outboxDir: '/nonexistent',
      log,
      logLinks: false,
    });
    expect(mailer.mode).toBe('smtp');
    await mailer.send({
      to: 'someone@example.test',
      subject: 'Hello there',
      text: 'Body text',
      html: '<p>Body text</p>',
    });
    const mail = smtp.received.at(-1);
    expect(mail?.to).toEqual(['someone@example.test']);
    expect(mail?.from).toBe('portal@example.test');
    expect(mail?.raw).toContain('Subject: Hello there');
  });

  it('delivers a working reset link through SMTP from the forgot-password action', async () => {
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const clock = manualClock();
    const app = await buildApp({ config, database, clock, logger: false });
    try {
      await app.ready();
      const api = new ApiClient(app, clock);
      const user = await seedUser({ app });
      const res = await api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
      expect(res.status).toBe(200);
      const mail = smtp.received.find((m) => m.to.includes(user.email));
      const link = /http:\/\/localhost:3999\/auth\/password\/reset\/([\w-]+)/.exec(mail?.raw ?? '');
      expect(link?.[1]).toBeTruthy();
      const check = await api.call(useraction, 'UserCheckToken', { token: link?.[1], tokentype: 2 });
      expect(check.body.valid).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('writes an .eml file to the outbox when SMTP is not configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ from: 'Portal <portal@example.test>', outboxDir: dir, log, logLinks: true });
    expect(mailer.mode).toBe('outbox');
    await mailer.send({
      to: 'reader@example.test',
      subject: 'Verify',
      text: 'Open http://localhost/auth/verify/abc',
      html: '<a href="http://localhost/auth/verify/abc">x</a>',
      link: 'http://localhost/auth/verify/abc',
    });
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toContain('reader@example.test');
    const eml = await readFile(join(dir, files[0] as string), 'utf8');
    expect(eml).toContain('Subject: Verify');
    expect(eml).toContain('To: reader@example.test');
  });
});
