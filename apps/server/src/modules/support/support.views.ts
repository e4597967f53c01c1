import type { InboxRequest, InboxRequestWithThread, MySupportRequest, MySupportRequestSummary } from '@portal/contract';
import type { SupportMessageListed, SupportRequestListed } from './support.repository.ts';

/** A request as its customer lists it. */
export function mySummary(row: SupportRequestListed): MySupportRequestSummary {
  return {
    ticket_id: row.ticketId,
    category: row.category,
    subject: row.subject,
    status: row.status,
    created_at: row.createdAt.getTime(),
    last_message_at: row.lastMessageAt.getTime(),
    messages: row.messages,
  };
}

/** A request with its thread as its customer reads it: staff are "staff", never named. */
export function myRequest(row: SupportRequestListed, messages: readonly SupportMessageListed[]): MySupportRequest {
  return {
    ...mySummary(row),
    robot_model: row.robotModel ?? '',
    thread: [
      { author: 'customer', body: row.message, at: row.createdAt.getTime() },
      ...messages.map((m) => ({ author: m.author, body: m.body, at: m.createdAt.getTime() })),
    ],
  };
}

/** A request as the inbox lists it. */
export function inboxSummary(row: SupportRequestListed): InboxRequest {
  return {
    ticket_id: row.ticketId,
    category: row.category,
    subject: row.subject,
    status: row.status,
    customer_user_id: row.userId,
    customer_email: row.customerEmail,
    assignee_user_id: row.assigneeId ?? '',
    assignee_email: row.assigneeEmail ?? '',
    created_at: row.createdAt.getTime(),
    updated_at: row.updatedAt.getTime(),
    last_message_at: row.lastMessageAt.getTime(),
    messages: row.messages,
  };
}

/** A request with its thread as staff read it: staff authors named. */
export function inboxRequest(
  row: SupportRequestListed,
  messages: readonly SupportMessageListed[],
): InboxRequestWithThread {
  return {
    ...inboxSummary(row),
    robot_model: row.robotModel ?? '',
    thread: [
      { author: 'customer', author_email: row.customerEmail, body: row.message, at: row.createdAt.getTime() },
      ...messages.map((m) => ({
        author: m.author,
        author_email: m.author === 'customer' ? row.customerEmail : (m.staffEmail ?? ''),
        body: m.body,
        at: m.createdAt.getTime(),
      })),
    ],
  };
}
