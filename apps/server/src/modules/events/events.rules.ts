import { EVENT_KINDS, type LiveEvent, type StreamMessage } from '@portal/contract';

/**
 * The pure rules of the event transport (docs/decisions/031): what a NOTIFY carries, how it is cut
 * to PostgreSQL's payload limit, which open streams an event goes to, and how a message is framed
 * as a server-sent event.
 */

/** The channel every instance LISTENs on. */
export const EVENTS_CHANNEL = 'portal_events';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; this leaves room to spare. */
export const NOTIFY_MAX_BYTES = 7_900;

/**
 * A NOTIFY's payload: the event in short keys and the users it is for. Ids and kinds only: what
 * changed is read again by whoever receives it, so nothing private travels through the channel.
 */
export interface Notification {
  event: LiveEvent;
  /** user ids the event is for */
  users: string[];
}

interface Wire {
  k: string;
  r?: string;
  l?: string;
  a?: boolean;
  u: string[];
}

function wire(event: LiveEvent, users: string[]): Wire {
  return {
    k: event.kind,
    ...(event.robot_id ? { r: event.robot_id } : {}),
    ...(event.license_id ? { l: event.license_id } : {}),
    ...(event.available !== undefined ? { a: event.available } : {}),
    u: users,
  };
}

/**
 * The payloads of one event for these users: as few as fit NOTIFY_MAX_BYTES each (a license shared
 * with hundreds of users takes several). No users, no payloads.
 */
export function encodeNotifications(event: LiveEvent, users: readonly string[], maxBytes = NOTIFY_MAX_BYTES): string[] {
  const unique = [...new Set(users)];
  const payloads: string[] = [];
  const base = Buffer.byteLength(JSON.stringify(wire(event, [])));
  let chunk: string[] = [];
  let size = base;
  for (const user of unique) {
    // an id adds itself in quotes, and a comma unless it is the first
    const cost = (first: boolean) => Buffer.byteLength(user) + 2 + (first ? 0 : 1);
    if (chunk.length && size + cost(false) > maxBytes) {
      payloads.push(JSON.stringify(wire(event, chunk)));
      chunk = [];
      size = base;
    }
    size += cost(chunk.length === 0);
    chunk.push(user);
  }
  if (chunk.length) payloads.push(JSON.stringify(wire(event, chunk)));
  return payloads;
}

const KINDS = new Set<string>(EVENT_KINDS);

/** A payload read back; undefined for anything this version does not understand (another version's, or junk). */
export function decodeNotification(payload: string): Notification | undefined {
  let w: Partial<Wire>;
  try {
    w = JSON.parse(payload) as Partial<Wire>;
  } catch {
    return undefined;
  }
  if (!w || typeof w !== 'object' || typeof w.k !== 'string' || !KINDS.has(w.k)) return undefined;
  if (!Array.isArray(w.u) || !w.u.every((u) => typeof u === 'string')) return undefined;
  const event: LiveEvent = {
    kind: w.k as LiveEvent['kind'],
    ...(typeof w.r === 'string' ? { robot_id: w.r } : {}),
    ...(typeof w.l === 'string' ? { license_id: w.l } : {}),
    ...(typeof w.a === 'boolean' ? { available: w.a } : {}),
  };
  return { event, users: w.u };
}

/** An open stream, as routing sees it. */
export interface Routable {
  userId: string;
}

/**
 * The streams an event goes to: those of the users it names, and no other. Routing is by user id on
 * the server; a browser never receives another user's event to filter out.
 */
export function routeEvent<S extends Routable>(
  notification: Notification,
  streamsByUser: ReadonlyMap<string, ReadonlySet<S>>,
): S[] {
  const out: S[] = [];
  for (const user of new Set(notification.users)) for (const stream of streamsByUser.get(user) ?? []) out.push(stream);
  return out;
}

/** One server-sent event carrying a message as JSON (its data has no newline, so one `data:` line). */
export function sseFrame(message: StreamMessage): string {
  return `data: ${JSON.stringify(message)}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream; EventSource ignores it. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';
