/**
 * The life of a support request (issue 35, docs/decisions/074): `new` until staff touch it, `open`
 * while it is ours to answer, `waiting` on the customer after a staff reply, `closed` when done.
 * Who wrote last decides the status; staff may also set it by hand. Pure, so the server and the
 * screens read the same rule.
 */
export const SUPPORT_STATUSES = ['new', 'open', 'waiting', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** The statuses staff may set by hand: `new` means nobody has looked yet, which a person cannot undo. */
export const SETTABLE_SUPPORT_STATUSES = ['open', 'waiting', 'closed'] as const;
export type SettableSupportStatus = (typeof SETTABLE_SUPPORT_STATUSES)[number];

/** What a customer sees for each status on /dashboard/support. */
export const SUPPORT_STATUS_LABELS: Record<SupportStatus, string> = {
  new: 'Received',
  open: 'Open',
  waiting: 'Answered',
  closed: 'Closed',
};

export type SupportEvent =
  /** the customer wrote in the thread: ours to answer again, even when it was closed */
  | { kind: 'customer_reply' }
  /** staff answered: the customer's turn */
  | { kind: 'staff_reply' }
  /** staff set the status by hand */
  | { kind: 'set'; to: SupportStatus };

/**
 * The status after `event`, or an error naming why it is refused. Setting the status it already has
 * is allowed and changes nothing (the caller records no change).
 */
export function nextSupportStatus(
  from: SupportStatus,
  event: SupportEvent,
): { ok: true; status: SupportStatus } | { ok: false; reason: string } {
  switch (event.kind) {
    case 'customer_reply':
      return { ok: true, status: 'open' };
    case 'staff_reply':
      return { ok: true, status: 'waiting' };
    case 'set':
      if (event.to === from) return { ok: true, status: from };
      if (!(SETTABLE_SUPPORT_STATUSES as readonly string[]).includes(event.to))
        return { ok: false, reason: `Status must be one of ${SETTABLE_SUPPORT_STATUSES.join(', ')}` };
      return { ok: true, status: event.to };
  }
}

/** Whether a request still needs staff: the inbox's "open" count. */
export function awaitsStaff(status: SupportStatus): boolean {
  return status === 'new' || status === 'open';
}
