import type { TestApp } from '../../test/harness.ts';
import { seedUser } from '../../test/harness.ts';
import { supportRepository } from './support.repository.ts';
import { newTicketId } from './support.service.ts';

/** A fresh support request of a fresh customer, stored directly (the contact form is tested in support.test.ts). */
export async function seedSupportRequest(t: Pick<TestApp, 'app'>, subject = 'A seeded question') {
  const customer = await seedUser(t);
  const now = new Date();
  const row = await supportRepository.insert(t.app.deps.db, {
    ticketId: newTicketId(),
    userId: customer.id,
    email: customer.email,
    category: 'general',
    subject,
    message: 'A question, long enough to be one.',
    createdAt: now,
    updatedAt: now,
    lastMessageAt: now,
  });
  return { customer, ticketId: row.ticketId };
}

/** A fresh account with the support role: an assignee. */
export async function seedSupportStaff(t: Pick<TestApp, 'app'>) {
  const user = await seedUser(t);
  await t.app.services.staff.setRole({ userId: user.id, role: 'support', by: { kind: 'cli' } });
  return user;
}
