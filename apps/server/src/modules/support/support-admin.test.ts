import { adminSupport, ErrorCodes, OPERATOR_HEADER, robots, support } from '@portal/contract';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEntries, auditPersonal, supportRequests, users } from '../../db/schema.ts';
import { as, grantLicense, hardwareHash, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { type Answer, seedUser } from '../../test/harness.ts';
import type { StaffActor } from '../staff/staff.service.ts';
import { buy, PLAN } from '../subscriptions/subscriptions.test-helpers.ts';

/**
 * The staff side of support requests (issue 35): the inbox's service, and the adminSupport actions
 * over HTTP (/api/admin/support, auth `staff`). Each change is exactly one audit entry in its
 * transaction; a refused one writes none. The role matrix of these actions is admin-roles.test.ts's.
 */

const LEGACY = 'the-legacy-operator-token-of-at-least-32-chars';
const t = useTestApp({ OPERATOR_TOKEN: LEGACY });
const log = { warn: () => {}, info: () => {} } as never;

async function staffMember(role: 'support' | 'finance' | 'admin' = 'support'): Promise<SignedIn & { by: StaffActor }> {
  const user = await signIn(t);
  await t.app.deps.db.update(users).set({ staffRole: role }).where(eq(users.id, user.id));
  return { ...user, by: { kind: 'staff', userId: user.id } };
}

async function requestOf(user: SignedIn, subject = 'My robot stalls') {
  const res = await as(
    t,
    user,
    support,
  )('SubmitSupportRequest', {
    category: 'technical',
    subject,
    message: 'It stops after ten minutes of dialling.',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ticket_id as string;
}

/** The audit entries about a ticket, oldest first, with their side rows. */
async function entriesOf(ticket: string) {
  const rows = await t.app.deps.db
    .select()
    .from(auditEntries)
    .leftJoin(auditPersonal, eq(auditPersonal.seq, auditEntries.seq))
    .where(eq(auditEntries.target, ticket))
    .orderBy(asc(auditEntries.seq));
  return rows.map((r) => ({ ...r.audit_entries, personal: r.audit_personal?.data }));
}

const changesOf = async (ticket: string) => (await entriesOf(ticket)).filter((e) => e.kind === 'change');

describe('the inbox list', () => {
  it('lists newest first with the customer email, filtered by status and assignee, paged', async () => {
    const agent = await staffMember();
    const customer = await signIn(t);
    const tickets: string[] = [];
    for (const subject of ['One', 'Two', 'Three']) {
      tickets.push(await requestOf(customer, subject));
      t.clock.advance(1_000);
    }
    const inbox = t.app.services.supportInbox;
    await inbox.assign(tickets[1] as string, agent.id, agent.by);
    await inbox.setStatus(tickets[0] as string, 'closed', agent.by);

    const page = await inbox.list({ offset: 0, limit: 2 });
    expect(page.requests.map((r) => r.ticket_id)).toEqual([tickets[2], tickets[1]]);
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.requests[0]).toMatchObject({
      subject: 'Three',
      status: 'new',
      customer_user_id: customer.id,
      customer_email: customer.email,
      assignee_user_id: '',
      messages: 1,
    });
    const next = await inbox.list({ offset: 2, limit: 1 });
    expect(next.requests.map((r) => r.ticket_id)).toEqual([tickets[0]]);

    const mine = await inbox.list({ assigneeId: agent.id, offset: 0, limit: 50 });
    expect(mine.requests.map((r) => r.ticket_id)).toEqual([tickets[1]]);
    expect(mine.requests[0]).toMatchObject({ assignee_email: agent.email, assignee_user_id: agent.id });
    const unassigned = await inbox.list({ assigneeId: null, offset: 0, limit: 100 });
    expect(unassigned.requests.map((r) => r.ticket_id)).not.toContain(tickets[1]);
    expect(unassigned.requests.map((r) => r.ticket_id)).toContain(tickets[2]);
    const closed = await inbox.list({ status: 'closed', offset: 0, limit: 100 });
    expect(closed.requests.map((r) => r.ticket_id)).toContain(tickets[0]);
    expect(closed.requests.every((r) => r.status === 'closed')).toBe(true);
  });
});

describe('opening a request', () => {
  it('shows the thread and the customer beside it, and is a read entry', async () => {
    const agent = await staffMember();
    const customer = await signIn(t);
    const robot = await as(
      t,
      customer,
      robots,
    )('REGISTERSIM', {
      make: 'Pepper',
      model: 'Pepper',
      name: 'Inbox Pepper',
      hardware_hash: hardwareHash(),
    });
    expect(robot.status).toBe(200);
    await grantLicense(t, customer.id, 'Pepper');
    await buy(t, customer, [PLAN.standardMonthly]);
    const ticket = await requestOf(customer);

    const { request, customer: context } = await t.app.services.supportInbox.open(ticket, agent.by, {
      ip: '203.0.113.9',
    });
    expect(request).toMatchObject({
      ticket_id: ticket,
      customer_email: customer.email,
      thread: [{ author: 'customer', author_email: customer.email, body: 'It stops after ten minutes of dialling.' }],
    });
    expect(context.profile).toMatchObject({ user_id: customer.id, email: customer.email, disabled: false });
    expect(context.tier).toBe('Standard');
    expect(context.subscriptions.user_subscriptions.map((s) => s.status)).toContain('active');
    expect(context.robots.map((r) => r.name)).toEqual(['Inbox Pepper']);
    expect(context.licenses.robot_licenses.map((l) => l.robot_model)).toContain('Pepper');
    expect(context.payments).toHaveLength(1);
    expect(context.payments[0]).toMatchObject({ status: 'paid', user_email: customer.email });

    const entries = await entriesOf(ticket);
    expect(entries.map((e) => [e.kind, e.action, e.actorKind, e.actorId, e.subjectUserId])).toEqual([
      ['read', 'support.open', 'staff', agent.id, customer.id],
    ]);
  });

  it('answers NOT_FOUND naming the ticket for an unknown one, and records nothing', async () => {
    const agent = await staffMember();
    await expect(t.app.services.supportInbox.open('SR-ZZZZ-ZZZ2', agent.by)).rejects.toMatchObject({
      errorName: 'NOT_FOUND',
      message: expect.stringMatching(/^ticket_id: /),
    });
    expect(await entriesOf('SR-ZZZZ-ZZZ2')).toEqual([]);
  });
});

describe('a staff reply', () => {
  it('is stored in the thread, waits on the customer, mails them and is exactly one change entry', async () => {
    const agent = await staffMember();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const reply = 'Please update the hub to 1.4 and try again.\nTell us how it goes.';

    const view = await t.app.services.supportInbox.reply(ticket, reply, agent.by, log, { ip: '203.0.113.9' });
    expect(view.status).toBe('waiting');
    expect(view.thread.at(-1)).toMatchObject({ author: 'staff', author_email: agent.email, body: reply });

    const mail = t.mailer.lastTo(customer.email);
    expect(mail?.subject).toBe(`[${ticket}] Reply to your Robot Portal support request`);
    expect(mail?.text).toContain('Please update the hub to 1.4 and try again.');
    expect(mail?.text).toContain('please write in the portal at /dashboard/support');
    expect(mail?.link).toBe(`http://localhost:3999/dashboard/support?ticket=${ticket}`);

    const changes = await changesOf(ticket);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'support.reply',
      actorKind: 'staff',
      actorId: agent.id,
      subjectUserId: customer.id,
      fields: ['status'],
    });
    expect(changes[0]?.personal).toMatchObject({ changes: { status: { before: 'new', after: 'waiting' } } });

    // The customer reads it in the portal, staff unnamed, and answering reopens it.
    const mine = await as(t, customer, support)('GetMySupportRequest', { ticket_id: ticket });
    expect(mine.body.request).toMatchObject({ status: 'waiting' });
    expect((mine.body.request as { thread: unknown[] }).thread.at(-1)).toEqual({
      author: 'staff',
      body: reply,
      at: view.thread.at(-1)?.at,
    });
    const answered = await as(
      t,
      customer,
      support,
    )('ReplyToMySupportRequest', {
      ticket_id: ticket,
      message: 'Updated, it works now. Thank you!',
    });
    expect(answered.body.request).toMatchObject({ status: 'open', messages: 3 });
  });

  it('by an API key names no staff member, and the entry names the key', async () => {
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const view = await t.app.services.supportInbox.reply(
      ticket,
      'An answer from automation.',
      { kind: 'key', keyId: 'k-1' },
      log,
    );
    expect(view.thread.at(-1)).toMatchObject({ author: 'staff', author_email: '' });
    expect((await changesOf(ticket)).map((e) => [e.actorKind, e.actorId])).toEqual([['key', 'k-1']]);
  });

  it('to an unknown ticket is NOT_FOUND: no message, no mail, no entry', async () => {
    const agent = await staffMember();
    const mails = t.mailer.sent.length;
    await expect(
      t.app.services.supportInbox.reply('SR-ZZZZ-ZZZ3', 'Hello there, anyone?', agent.by, log),
    ).rejects.toMatchObject({
      errorName: 'NOT_FOUND',
    });
    expect(t.mailer.sent.length).toBe(mails);
    expect(await entriesOf('SR-ZZZZ-ZZZ3')).toEqual([]);
  });
});

describe('status and assignee by hand', () => {
  it('a status change is one entry with before and after; the same status records nothing; new is refused', async () => {
    const agent = await staffMember();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const inbox = t.app.services.supportInbox;

    expect((await inbox.setStatus(ticket, 'open', agent.by)).status).toBe('open');
    expect((await inbox.setStatus(ticket, 'open', agent.by)).status).toBe('open');
    expect((await inbox.setStatus(ticket, 'closed', agent.by)).status).toBe('closed');
    await expect(inbox.setStatus(ticket, 'new' as never, agent.by)).rejects.toMatchObject({
      errorName: 'VALIDATION',
      message: 'status: Status must be one of open, waiting, closed',
    });
    const changes = await changesOf(ticket);
    expect(changes.map((e) => [e.action, e.personal?.changes])).toEqual([
      ['support.status', { status: { before: 'new', after: 'open' } }],
      ['support.status', { status: { before: 'open', after: 'closed' } }],
    ]);
    const [row] = await t.app.deps.db.select().from(supportRequests).where(eq(supportRequests.ticketId, ticket));
    expect(row?.status).toBe('closed');
  });

  it('assigning is one entry with before and after; a customer cannot be the assignee; unassigning is one more', async () => {
    const agent = await staffMember();
    const other = await staffMember('finance');
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const inbox = t.app.services.supportInbox;

    expect((await inbox.assign(ticket, agent.id, agent.by)).assignee_email).toBe(agent.email);
    expect((await inbox.assign(ticket, agent.id, agent.by)).assignee_email).toBe(agent.email);
    await expect(inbox.assign(ticket, customer.id, agent.by)).rejects.toMatchObject({
      errorName: 'VALIDATION',
      message: 'assignee_user_id: must be a staff member',
    });
    expect((await inbox.assign(ticket, other.id, agent.by)).assignee_user_id).toBe(other.id);
    expect((await inbox.assign(ticket, null, agent.by)).assignee_user_id).toBe('');
    const changes = await changesOf(ticket);
    expect(changes.map((e) => [e.action, e.fields, e.personal?.changes])).toEqual([
      ['support.assign', ['assignee'], { assignee: { before: null, after: agent.email } }],
      ['support.assign', ['assignee'], { assignee: { before: agent.email, after: other.email } }],
      ['support.assign', ['assignee'], { assignee: { before: other.email, after: null } }],
    ]);
  });

  it('a staff account that goes leaves its requests unassigned, and its replies in the thread', async () => {
    const agent = await staffMember();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    await t.app.services.supportInbox.assign(ticket, agent.id, agent.by);
    await t.app.services.supportInbox.reply(ticket, 'We are looking into it.', agent.by, log);
    await t.app.deps.db.delete(users).where(eq(users.id, agent.id));
    const { request } = await t.app.services.supportInbox.open(ticket, { kind: 'cli' });
    expect(request.assignee_user_id).toBe('');
    expect(request.thread.at(-1)).toMatchObject({ author: 'staff', author_email: '', body: 'We are looking into it.' });
  });
});

describe('the adminSupport contract names the field and the rule', () => {
  it.each([
    ['ListSupportRequests', { limit: 0 }, 'limit: Limit must be at least 1'],
    ['ListSupportRequests', { limit: 101 }, 'limit: Limit must be at most 100'],
    ['ListSupportRequests', { assignee_user_id: 'someone' }, 'assignee_user_id: Assignee user id must be a UUID'],
    ['GetSupportRequest', { ticket_id: 'nope' }, 'ticket_id: Ticket id must look like SR-XXXX-XXXX'],
    [
      'ReplySupportRequest',
      { ticket_id: 'SR-ABCD-2345', message: 'short' },
      'message: Message must be at least 10 characters',
    ],
    [
      'SetSupportStatus',
      { ticket_id: 'SR-ABCD-2345', status: 'new' },
      'status: Status must be one of open, waiting, closed',
    ],
    [
      'AssignSupportRequest',
      { ticket_id: 'SR-ABCD-2345', assignee_user_id: 'x' },
      'assignee_user_id: Assignee user id must be a UUID',
    ],
  ] as const)('%s %o', (name, body, description) => {
    const parsed = adminSupport.actions[name].request.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')).toContain(description);
  });

  it('reads need customers.read, changes support.answer', () => {
    expect(Object.fromEntries(Object.entries(adminSupport.actions).map(([n, a]) => [n, a.permission]))).toEqual({
      ListSupportRequests: 'customers.read',
      GetSupportRequest: 'customers.read',
      ReplySupportRequest: 'support.answer',
      SetSupportStatus: 'support.answer',
      AssignSupportRequest: 'support.answer',
    });
    expect(ErrorCodes.NOT_FOUND.status).toBe(404);
  });
});

type Credential = { bearer: string } | { key: string } | undefined;
type SupportAction = keyof (typeof adminSupport)['actions'] & string;

/** A staff member of the support role in a passkey session. */
async function supportSession() {
  const user = await seedUser(t);
  await t.app.services.staff.setRole({ userId: user.id, role: 'support', by: { kind: 'cli' } });
  const pair = await t.app.services.sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
  return { ...user, bearer: pair.access_token };
}

/** One adminSupport call; a success must match the contract. */
async function callInbox(action: SupportAction, body: Record<string, unknown>, who: Credential): Promise<Answer> {
  const headers: Record<string, string> = who && 'key' in who ? { [OPERATOR_HEADER]: who.key } : {};
  const res = await t.api.post(
    adminSupport.path,
    { action, ...body },
    { headers, ...(who && 'bearer' in who ? { bearer: who.bearer } : {}) },
  );
  if (res.status === 200) {
    const parsed = adminSupport.actions[action].response.safeParse(res.body);
    if (!parsed.success) throw new Error(`${action}: the answer breaks the contract: ${parsed.error.message}`);
  }
  return res;
}

describe('/api/admin/support over HTTP', () => {
  it('a support member lists, opens, answers, closes and assigns; the customer reads the answer', async () => {
    const agent = await supportSession();
    const customer = await signIn(t);
    const ticket = await requestOf(customer, 'Over HTTP');

    const listed = await callInbox('ListSupportRequests', { status: 'new', limit: 100 }, agent);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.requests).toContainEqual(
      expect.objectContaining({ ticket_id: ticket, customer_email: customer.email, status: 'new' }),
    );

    const opened = await callInbox('GetSupportRequest', { ticket_id: ticket.toLowerCase() }, agent);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      request: { ticket_id: ticket, subject: 'Over HTTP' },
      customer: { profile: { email: customer.email }, tier: 'Lite' },
    });

    const replied = await callInbox(
      'ReplySupportRequest',
      { ticket_id: ticket, message: 'Answered over HTTP, see?' },
      agent,
    );
    expect(replied.status).toBe(200);
    expect(replied.body.request).toMatchObject({ status: 'waiting' });
    expect(t.mailer.lastTo(customer.email)?.subject).toBe(`[${ticket}] Reply to your Robot Portal support request`);
    const mine = await as(t, customer, support)('GetMySupportRequest', { ticket_id: ticket });
    expect((mine.body.request as { thread: { body: string }[] }).thread.at(-1)?.body).toBe('Answered over HTTP, see?');

    const closed = await callInbox('SetSupportStatus', { ticket_id: ticket, status: 'closed' }, agent);
    expect(closed.body.request).toMatchObject({ status: 'closed' });
    const assigned = await callInbox('AssignSupportRequest', { ticket_id: ticket, assignee_user_id: agent.id }, agent);
    expect(assigned.body.request).toMatchObject({ assignee_user_id: agent.id, assignee_email: agent.email });

    const changes = await changesOf(ticket);
    expect(changes.map((e) => [e.action, e.actorKind, e.actorId])).toEqual([
      ['support.reply', 'staff', agent.id],
      ['support.status', 'staff', agent.id],
      ['support.assign', 'staff', agent.id],
    ]);
    expect((await entriesOf(ticket)).filter((e) => e.kind === 'read').map((e) => e.action)).toEqual(['support.open']);
  });

  it('an API key answers as itself (the key "legacy" here), and its entry names the key', async () => {
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const res = await callInbox(
      'ReplySupportRequest',
      { ticket_id: ticket, message: 'An answer by automation.' },
      { key: LEGACY },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await changesOf(ticket)).map((e) => [e.actorKind, e.actorId])).toEqual([['key', 'legacy']]);
  });

  it('is an unknown route to a customer, without a credential, and to a revoked key, and changes nothing', async () => {
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const unknown = await t.api.post('/api/no-such-service', { action: 'ReplySupportRequest' }, {});
    const revoked = await t.app.services.staff.createKey({
      name: 'revoked inbox key',
      role: 'admin',
      by: { kind: 'cli' },
    });
    await t.app.services.staff.revokeKey({ id: revoked.id, by: { kind: 'cli' } });
    for (const who of [{ bearer: customer.token }, undefined, { key: revoked.key }] as Credential[]) {
      const res = await callInbox(
        'ReplySupportRequest',
        { ticket_id: ticket, message: 'Not staff at all, sorry.' },
        who,
      );
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).toBe(
        JSON.stringify(unknown.body).replace('/api/no-such-service', adminSupport.path),
      );
    }
    expect(await entriesOf(ticket)).toEqual([]);
    const mine = await as(t, customer, support)('GetMySupportRequest', { ticket_id: ticket });
    expect(mine.body.request).toMatchObject({ status: 'new', messages: 1 });
  });

  it.each([
    ['ReplySupportRequest', { message: 'short' }, 'message: Message must be at least 10 characters'],
    ['ReplySupportRequest', { ticket_id: 'SR-1' }, 'ticket_id: Ticket id must look like SR-XXXX-XXXX'],
    ['SetSupportStatus', { status: 'new' }, 'status: Status must be one of open, waiting, closed'],
    ['AssignSupportRequest', { assignee_user_id: 'nobody' }, 'assignee_user_id: Assignee user id must be a UUID'],
    ['ListSupportRequests', { limit: 500 }, 'limit: Limit must be at most 100'],
  ] as const)('%s refuses %o with 400 naming the field, and records nothing', async (action, patch, description) => {
    const agent = await supportSession();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const body = {
      ticket_id: ticket,
      message: 'A good answer, long enough.',
      status: 'closed',
      assignee_user_id: agent.id,
      ...patch,
    };
    const res = await callInbox(action, body, agent);
    expect(res.status).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.VALIDATION.code);
    expect(res.body.error.Description).toContain(description);
    expect(await entriesOf(ticket)).toEqual([]);
  });

  it('a customer as assignee, or an unknown ticket: refused, no entry', async () => {
    const agent = await supportSession();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const notStaff = await callInbox(
      'AssignSupportRequest',
      { ticket_id: ticket, assignee_user_id: customer.id },
      agent,
    );
    expect([notStaff.status, notStaff.body.error.Description]).toEqual([
      400,
      'assignee_user_id: must be a staff member',
    ]);
    const unknownTicket = await callInbox('SetSupportStatus', { ticket_id: 'SR-ZZZZ-ZZZ4', status: 'open' }, agent);
    expect([unknownTicket.status, unknownTicket.body.error.Code]).toEqual([404, ErrorCodes.NOT_FOUND.code]);
    expect(await changesOf(ticket)).toEqual([]);
    expect(await changesOf('SR-ZZZZ-ZZZ4')).toEqual([]);
  });
});

describe('at once', () => {
  const PARALLEL = 12;

  it(`${PARALLEL} staff replies and customer answers at once: every message stored once, one entry per staff reply`, async () => {
    const agent = await supportSession();
    const customer = await signIn(t);
    const ticket = await requestOf(customer);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0
          ? callInbox('ReplySupportRequest', { ticket_id: ticket, message: `Staff reply number ${i}` }, agent)
          : as(t, customer, support)('ReplyToMySupportRequest', { ticket_id: ticket, message: `Customer answer ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(200));
    const mine = await as(t, customer, support)('GetMySupportRequest', { ticket_id: ticket });
    const thread = (mine.body.request as { thread: { author: string; body: string }[] }).thread;
    expect(thread).toHaveLength(PARALLEL + 1);
    expect(new Set(thread.map((m) => m.body)).size).toBe(PARALLEL + 1);
    // Whoever wrote last decides the status.
    const last = thread.at(-1)?.author;
    expect((mine.body.request as { status: string }).status).toBe(last === 'staff' ? 'waiting' : 'open');
    expect((await changesOf(ticket)).map((e) => e.action)).toEqual(Array(PARALLEL / 2).fill('support.reply'));
  });
});
