import { EVENT_KINDS, type LiveEvent, type StreamMessage } from '@portal/contract';

/**
 * The pure rules of the event transport (docs/decisions/031): what a NOTIFY carries, how it is cut
 * to PostgreSQL's payload limit, which open streams an event goes to, and how a message is framed
 * as a server-sent event.
 */

/** The channel every instance LISTENs on. */
export const EVENTS_CHANNEL = 'portal_events';

/**
 * The channel on which the sessions that just ended are announced (signed out, revoked from the
 * security centre, ended by a password change or reset, by an operator, or with their account), so
 * that every instance ends their streams at once instead of at its next heartbeat.
 */
export const SESSION_ENDS_CHANNEL = 'portal_session_ends';

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
 * Ids cut into lists, each of which fits `maxBytes` once written as a JSON array into a payload
 * whose other parts take `baseBytes`. Each id is kept once.
 */
function chunkIds(ids: readonly string[], baseBytes: number, maxBytes: number): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let size = baseBytes;
  for (const id of new Set(ids)) {
    // an id adds itself in quotes, and a comma unless it is the first
    const cost = (first: boolean) => Buffer.byteLength(id) + 2 + (first ? 0 : 1);
    if (chunk.length && size + cost(false) > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      size = baseBytes;
    }
    size += cost(chunk.length === 0);
    chunk.push(id);
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/**
 * The payloads of one event for these users: as few as fit NOTIFY_MAX_BYTES each (a license shared
 * with hundreds of users takes several). No users, no payloads.
 */
export function encodeNotifications(event: LiveEvent, users: readonly string[], maxBytes = NOTIFY_MAX_BYTES): string[] {
  const base = Buffer.byteLength(JSON.stringify(wire(event, [])));
  return chunkIds(users, base, maxBytes).map((chunk) => JSON.stringify(wire(event, chunk)));
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

/** The payloads announcing that these sessions ended: `{"s":[ids]}`, each under `maxBytes`. */
export function encodeSessionEnds(sessionIds: readonly string[], maxBytes = NOTIFY_MAX_BYTES): string[] {
  const base = Buffer.byteLength(JSON.stringify({ s: [] }));
  return chunkIds(sessionIds, base, maxBytes).map((chunk) => JSON.stringify({ s: chunk }));
}

/** The session ids of a payload of SESSION_ENDS_CHANNEL; undefined for anything else. */
export function decodeSessionEnds(payload: string): string[] | undefined {
  let w: unknown;
  try {
    w = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const ids = w && typeof w === 'object' ? (w as { s?: unknown }).s : undefined;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : undefined;
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
