import { ErrorCodes, SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX, support, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { freshDatabase, seedUser, type TestApp, testApp } from '../../test/harness.ts';
import { supportRepository } from './support.repository.ts';
import { SUPPORT_REQUESTS_PER_HOUR } from './support.routes.ts';

let database: Database;
let t: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

async function signedIn() {
  const user = await seedUser(t);
  const res = await t.api.call(useraction, 'login', { user: { email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  const accessToken = (res.body.token_pair as { access_token: string }).access_token;
  return { ...user, accessToken };
}

const valid = {
  category: 'robot_not_listed',
  subject: 'Unitree G1 support',
  message: 'Could you add the Unitree G1 to the list of supported robots?',
  robot_model: 'Unitree G1',
};

const submit = (body: Record<string, unknown>, bearer?: string) =>
  t.api.call(support, 'SubmitSupportRequest', body, bearer ? { bearer } : {});

describe('SubmitSupportRequest', () => {
  it('stores the request and answers a ticket id', async () => {
    const user = await signedIn();
    const res = await submit({ email: user.email.toUpperCase(), ...valid }, user.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.error.Success).toBe(true);
    const ticketId = res.body.ticket_id as string;
    expect(ticketId).toMatch(/^SR-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

    const row = await supportRepository.byTicket(t.app.deps.db, ticketId);
    expect(row).toMatchObject({
      userId: user.id,
      email: user.email,
      category: 'robot_not_listed',
      subject: valid.subject,
      message: valid.message,
      robotModel: 'Unitree G1',
      status: 'open',
    });
    expect(t.mailer.lastTo(user.email)?.subject).toContain(ticketId);
  });

  it('accepts a request without a robot model and trims the text', async () => {
    const user = await signedIn();
    const res = await submit(
      { email: user.email, category: 'billing', subject: '  Invoice  ', message: '  Where is my invoice?  ' },
      user.accessToken,
    );
    expect(res.status).toBe(200);
    const row = await supportRepository.byTicket(t.app.deps.db, res.body.ticket_id as string);
    expect(row).toMatchObject({ subject: 'Invoice', message: 'Where is my invoice?', robotModel: null });
  });

  it('answers a different ticket id for every request', async () => {
    const user = await signedIn();
    const a = await submit({ email: user.email, ...valid }, user.accessToken);
    const b = await submit({ email: user.email, ...valid }, user.accessToken);
    expect(a.body.ticket_id).not.toBe(b.body.ticket_id);
  });

  it.each([
    ['a subject under 3 characters', { subject: 'Hi' }, 'subject: Subject must be at least 3 characters'],
    ['a subject of only spaces', { subject: '     ' }, 'subject: Subject must be at least 3 characters'],
    [
      'a subject over 150 characters',
      { subject: 'x'.repeat(SUPPORT_SUBJECT_MAX + 1) },
      'subject: Subject must be at most 150 characters',
    ],
    ['a missing subject', { subject: undefined }, 'subject: Please enter a subject'],
    ['a message under 10 characters', { message: 'Help me' }, 'message: Message must be at least 10 characters'],
    [
      'a message over 5000 characters',
      { message: 'x'.repeat(SUPPORT_MESSAGE_MAX + 1) },
      'message: Message must be at most 5000 characters',
    ],
    ['a missing message', { message: undefined }, 'message: Please enter a message'],
    ['an unknown category', { category: 'sales' }, 'category: Please choose a category'],
    ['a missing category', { category: undefined }, 'category: Please choose a category'],
    [
      'a robot model over 200 characters',
      { robot_model: 'm'.repeat(201) },
      'robot_model: Robot model must be at most 200 characters',
    ],
    ['a malformed email', { email: 'not-an-email' }, 'email: Invalid email address'],
  ])('refuses %s with 400 naming the field', async (_label, patch, description) => {
    const user = await signedIn();
    const res = await submit({ email: user.email, ...valid, ...patch }, user.accessToken);
    expect(res.status).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.VALIDATION.code);
    expect(res.body.error.Description).toContain(description);
  });

  it('refuses a request that names another account', async () => {
    const user = await signedIn();
    const other = await seedUser(t);
    const res = await submit({ email: other.email, ...valid }, user.accessToken);
    expect(res.status).toBe(403);
    expect(res.body.error.Code).toBe(ErrorCodes.FORBIDDEN.code);
  });

  it('refuses a caller without a session', async () => {
    const user = await seedUser(t);
    const res = await submit({ email: user.email, ...valid });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      Code: ErrorCodes.UNAUTHENTICATED.code,
      Description: 'Missing required authentication',
    });
  });

  it('refuses a forged or body-only token', async () => {
    const user = await signedIn();
    const forged = await submit({ email: user.email, ...valid }, `${user.accessToken}x`);
    expect(forged.status).toBe(401);
    // The service is bearer-authenticated: a token in the body alone does not count.
    const bodyOnly = await submit({ email: user.email, token: user.accessToken, ...valid });
    expect(bodyOnly.status).toBe(401);
  });

  it('limits how many requests one account sends per hour', async () => {
    const user = await signedIn();
    for (let i = 0; i < SUPPORT_REQUESTS_PER_HOUR; i++)
      expect((await submit({ email: user.email, ...valid }, user.accessToken)).status).toBe(200);
    const limited = await submit({ email: user.email, ...valid }, user.accessToken);
    expect(limited.status).toBe(429);
    expect(limited.body.error.Code).toBe(ErrorCodes.RATE_LIMITED.code);
    // Another account is not affected.
    const other = await signedIn();
    expect((await submit({ email: other.email, ...valid }, other.accessToken)).status).toBe(200);
  });
});
