import * as z from 'zod/mini';
import { normalisedEmail } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * Live fleet events (issue 15, docs/decisions/031). A signed-in caller trades its access token for a
 * short-lived, single-use ticket (OpenEventStream), then opens `GET EVENT_STREAM_PATH?ticket=…` with
 * EventSource, which cannot send an Authorization header: the bearer token never travels in a URL.
 * The stream is server-sent events: each message's `data` is one `streamMessage` as JSON.
 */

/** Where the stream is read (GET, `text/event-stream`); not an action, so not in the services table. */
export const EVENT_STREAM_PATH = '/api/events/stream';
/** The query parameter of EVENT_STREAM_PATH that carries the ticket. */
export const EVENT_TICKET_PARAM = 'ticket';

/**
 * What changed. Every event names the robot or the license it is about; an event is a hint to read
 * again, never the new state itself (except `available`, which the Robot Manager shows at once).
 */
export const EVENT_KINDS = [
  /** UPDATEROBOT changed robot_state.available */
  'robot.availability',
  /** UPDATEROBOT or UPDATEMODALITIES changed the name or configuration */
  'robot.updated',
  'robot.registered',
  'robot.unregistered',
  /** a new license (bought, granted by an operator, or a flexible license saved into a slot) */
  'license.granted',
  'license.paired',
  'license.unpaired',
  'share.started',
  'share.ended',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const liveEvent = z.object({
  kind: z.enum(EVENT_KINDS),
  robot_id: z.optional(z.string()),
  license_id: z.optional(z.string()),
  /** with robot.availability: the state now */
  available: z.optional(z.boolean()),
});
export type LiveEvent = z.infer<typeof liveEvent>;

/**
 * A message of the stream: an event, or the stream's own news. `ready` is the first message (the
 * stream is open and routed); `resync` says events may have been missed (the server's listener
 * reconnected to the database), so the caller should read everything again.
 */
export const streamMessage = z.union([liveEvent, z.object({ kind: z.enum(['ready', 'resync']) })]);
export type StreamMessage = z.infer<typeof streamMessage>;

export const events = service('events', '/api/events', {
  OpenEventStream: action({
    summary:
      'A ticket to open the live event stream (GET /api/events/stream?ticket=…, server-sent events) once, within expires_in seconds. The stream carries the events of the robots and licenses the caller owns or is shared, lives as long as the session, and ends when the session is revoked or expires.',
    auth: 'bearer',
    request: z.object({ email: normalisedEmail }),
    response: response({
      ticket: z.string(),
      /** seconds the ticket can be redeemed for */
      expires_in: z.int(),
      /** the stream's path, with the ticket: what EventSource opens */
      stream_path: z.string(),
    }),
  }),
});
