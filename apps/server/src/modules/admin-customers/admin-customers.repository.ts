import type { SearchKey } from '@portal/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { supportRequests } from '../../db/schema.ts';

export interface SearchRow {
  user_id: string;
  matched: SearchKey;
  value: string;
  email: string;
  name: string;
  company: string;
}

/**
 * The upper bound of the strings that start with `prefix` in byte order (the order of
 * text_pattern_ops): its last character one higher. UTF-8 keeps the order of code points.
 */
export function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0;
  const head = prefix.slice(0, last > 0xffff ? -2 : -1);
  return head + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
}

/**
 * The back office's customer lookup (issue 35, docs/decisions/075): one statement over the keys a
 * customer is found by. Each branch is a range on a text_pattern_ops index (migration
 * customer_search), written as `~>=~` / `~<~` rather than LIKE so a generic plan of the prepared
 * statement still uses the index; starts_with keeps it exact. A pairing code is stored as its keyed
 * hash only (docs/decisions/007), so it matches whole, never by prefix.
 */
export const adminCustomersRepository = {
  async search(db: Executor, input: { prefix: string; pairCodeHash: string; limit: number }): Promise<SearchRow[]> {
    const p = input.prefix;
    const hi = prefixEnd(p);
    const n = input.limit;
    const range = (expression: string) => {
      const c = sql.raw(expression);
      return sql`${c} ~>=~ ${p} and ${c} ~<~ ${hi} and starts_with(${c}, ${p})`;
    };
    const result = await db.execute(sql`
      select m.user_id::text as user_id, m.matched, m.value, u.email, u.name, u.company
      from (
        (select id as user_id, 1 as rank, 'email' as matched, '' as value from users where ${range('email')} limit ${n})
        union all
        (select id, 2, 'name', '' from users where ${range('lower(name)')} limit ${n})
        union all
        (select id, 3, 'company', '' from users where ${range('lower(company)')} limit ${n})
        union all
        (select user_id, 4, 'robot_id', id::text from robots where ${range('(id::text)')} limit ${n})
        union all
        (select user_id, 5, 'pairing_code', '' from robot_licenses where pair_code_hash = ${input.pairCodeHash} limit 1)
        union all
        (select user_id, 6, 'ticket_id', ticket_id from support_requests where ${range('lower(ticket_id)')} limit ${n})
        union all
        (select user_id, 7, 'payment_id', id::text from payments where ${range('(id::text)')} limit ${n})
        union all
        (select user_id, 7, 'payment_id', payment_intent_id from payments
          where ${range('lower(payment_intent_id)')} limit ${n})
      ) m
      join users u on u.id = m.user_id
      order by m.rank, u.email`);
    return rowsOf<SearchRow>(result);
  },

  /** The customer's support requests, newest first: only the columns every branch has (issue 35). */
  supportRequestsOf(db: Executor, userId: string) {
    return db
      .select({
        id: supportRequests.id,
        ticketId: supportRequests.ticketId,
        subject: supportRequests.subject,
        category: supportRequests.category,
        status: supportRequests.status,
        createdAt: supportRequests.createdAt,
      })
      .from(supportRequests)
      .where(eq(supportRequests.userId, userId))
      .orderBy(desc(supportRequests.createdAt));
  },
};
