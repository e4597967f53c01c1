import { ErrorCodes, SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX, support, useraction } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { supportRequests } from '../../db/schema.ts';
import { freshDatabase, seedUser, type TestApp, testApp } from '../../test/harness.ts';
import { supportRepository } from './support.repository.ts';
import { SUPPORT_REQUESTS_PER_HOUR } from './support.routes.ts';

const INBOX = 'support-inbox@example.test';

let database: Database;
let t: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database, { SUPPORT_INBOX_EMAIL: INBOX });
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
      status: 'new',
      assigneeId: null,
    });
    expect(t.mailer.lastTo(user.email)?.subject).toContain(ticketId);
    // The support inbox is told, with a link to the request in the console.
    const notice = t.mailer.sent.filter((m) => m.to === INBOX && m.subject.includes(ticketId));
    expect(notice).toHaveLength(1);
    expect(notice[0]?.subject).toBe(`[${ticketId}] New support request: ${valid.subject}`);
    expect(notice[0]?.text).toContain('Category: My robot is not listed');
    expect(notice[0]?.text).toContain(`Customer: ${user.email}`);
    expect(notice[0]?.link).toBe(`http://localhost:3999/admin/support/${ticketId}`);
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

const call = (
  action: 'ListMySupportRequests' | 'GetMySupportRequest' | 'ReplyToMySupportRequest',
  body: Record<string, unknown>,
  bearer?: string,
) => t.api.call(support, action, body, bearer ? { bearer } : {});

async function sent(user: Awaited<ReturnType<typeof signedIn>>, subject = valid.subject) {
  const res = await submit({ email: user.email, ...valid, subject }, user.accessToken);
  expect(res.status).toBe(200);
  return res.body.ticket_id as string;
}

describe('the customer reads and answers their requests', () => {
  it('lists their own requests, newest first, with status and last message time', async () => {
    const user = await signedIn();
    const other = await signedIn();
    const first = await sent(user, 'First question');
    t.clock.advance(60_000);
    const second = await sent(user, 'Second question');
    await sent(other, 'Not yours');
    const res = await call('ListMySupportRequests', {}, user.accessToken);
    expect(res.status).toBe(200);
    const listed = res.body.requests as {
      ticket_id: string;
      subject: string;
      status: string;
      created_at: number;
      last_message_at: number;
      messages: number;
    }[];
    expect(listed.map((r) => r.ticket_id)).toEqual([second, first]);
    expect(listed[0]).toMatchObject({
      subject: 'Second question',
      status: 'new',
      messages: 1,
      category: 'robot_not_listed',
    });
    expect(listed[0]?.last_message_at).toBe(listed[0]?.created_at);
    expect(listed[0]?.created_at).toBeGreaterThan((listed[1]?.created_at ?? 0) + 59_000);
  });

  it('reads one with its thread; the ticket id is read in any case', async () => {
    const user = await signedIn();
    const ticket = await sent(user);
    const res = await call('GetMySupportRequest', { ticket_id: ` ${ticket.toLowerCase()} ` }, user.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({
      ticket_id: ticket,
      status: 'new',
      robot_model: 'Unitree G1',
      thread: [{ author: 'customer', body: valid.message }],
    });
  });

  it("answers 404 for another customer's request, to read or to answer, and changes nothing", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const ticket = await sent(owner);
    const read = await call('GetMySupportRequest', { ticket_id: ticket }, stranger.accessToken);
    expect(read.status).toBe(404);
    expect(read.body.error).toMatchObject({
      Code: ErrorCodes.NOT_FOUND.code,
      Description: expect.stringMatching(/^ticket_id: /),
    });
    const mailsBefore = t.mailer.sent.length;
    const answer = await call(
      'ReplyToMySupportRequest',
      { ticket_id: ticket, message: 'Let me in on this one please' },
      stranger.accessToken,
    );
    expect(answer.status).toBe(404);
    const mine = await call('GetMySupportRequest', { ticket_id: ticket }, owner.accessToken);
    expect((mine.body.request as { thread: unknown[] }).thread).toHaveLength(1);
    expect(t.mailer.sent.length).toBe(mailsBefore);
    // A ticket id nobody has answers the same.
    expect((await call('GetMySupportRequest', { ticket_id: 'SR-ZZZZ-ZZZZ' }, owner.accessToken)).status).toBe(404);
  });

  it.each([
    ['waiting', 'open'],
    ['closed', 'open'],
    ['new', 'open'],
    ['open', 'open'],
  ] as const)('an answer to a %s request makes it %s, and tells the support inbox', async (before, after) => {
    const user = await signedIn();
    const ticket = await sent(user);
    await t.app.deps.db.update(supportRequests).set({ status: before }).where(eq(supportRequests.ticketId, ticket));
    t.clock.advance(5 * 60_000);
    const answeredFrom = t.clock.now().getTime();
    const res = await call(
      'ReplyToMySupportRequest',
      { ticket_id: ticket, message: '  Still stalls after the update.  ' },
      user.accessToken,
    );
    expect(res.status).toBe(200);
    const request = res.body.request as {
      status: string;
      thread: { author: string; body: string; at: number }[];
      last_message_at: number;
      messages: number;
    };
    expect(request.status).toBe(after);
    expect(request.messages).toBe(2);
    const answer = request.thread.at(-1);
    expect(answer).toMatchObject({ author: 'customer', body: 'Still stalls after the update.' });
    expect(answer?.at).toBeGreaterThanOrEqual(answeredFrom);
    expect(request.last_message_at).toBe(answer?.at);
    const listed = await call('ListMySupportRequests', {}, user.accessToken);
    expect((listed.body.requests as { status: string }[])[0]?.status).toBe(after);
    const notice = t.mailer.lastTo(INBOX);
    expect(notice?.subject).toBe(`[${ticket}] Customer replied: ${valid.subject}`);
    expect(notice?.link).toBe(`http://localhost:3999/admin/support/${ticket}`);
  });

  it.each([
    ['a message under 10 characters', { message: 'Thanks' }, 'message: Message must be at least 10 characters'],
    ['a message of only spaces', { message: ' '.repeat(20) }, 'message: Message must be at least 10 characters'],
    [
      'a message over 5000 characters',
      { message: 'x'.repeat(SUPPORT_MESSAGE_MAX + 1) },
      'message: Message must be at most 5000 characters',
    ],
    ['a missing message', { message: undefined }, 'message: Please enter a message'],
    ['a malformed ticket id', { ticket_id: 'TICKET-1' }, 'ticket_id: Ticket id must look like SR-XXXX-XXXX'],
    ['a missing ticket id', { ticket_id: undefined }, 'ticket_id: Please enter a ticket id'],
  ])('refuses an answer with %s: 400 naming the field, nothing stored', async (_label, patch, description) => {
    const user = await signedIn();
    const ticket = await sent(user);
    const res = await call(
      'ReplyToMySupportRequest',
      { ticket_id: ticket, message: 'A perfectly fine answer', ...patch },
      user.accessToken,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.VALIDATION.code);
    expect(res.body.error.Description).toContain(description);
    const mine = await call('GetMySupportRequest', { ticket_id: ticket }, user.accessToken);
    expect(mine.body.request).toMatchObject({ status: 'new', messages: 1 });
  });

  it('refuses every read and answer without a session', async () => {
    expect((await call('ListMySupportRequests', {})).status).toBe(401);
    expect((await call('GetMySupportRequest', { ticket_id: 'SR-ABCD-2345' })).status).toBe(401);
    expect(
      (await call('ReplyToMySupportRequest', { ticket_id: 'SR-ABCD-2345', message: 'Hello there, anyone?' })).status,
    ).toBe(401);
  });

  it("deleting the account deletes its requests and their threads (the privacy policy's promise)", async () => {
    const user = await signedIn();
    const ticket = await sent(user);
    await call('ReplyToMySupportRequest', { ticket_id: ticket, message: 'One more detail for you' }, user.accessToken);
    const row = await supportRepository.byTicket(t.app.deps.db, ticket);
    const res = await t.api.call(
      useraction,
      'UserDelete',
      { token: user.accessToken, user: { email: user.email, password: user.password } },
      { bearer: user.accessToken },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await supportRepository.byTicket(t.app.deps.db, ticket)).toBeUndefined();
    expect(await supportRepository.messagesOf(t.app.deps.db, row?.id ?? '')).toEqual([]);
  });
});
