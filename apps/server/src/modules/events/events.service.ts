import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type LiveEvent, type StreamMessage } from '@portal/contract';
import type { Database, Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { eventRepository as repo } from './events.repository.ts';
import {
  decodeNotification,
  decodeSessionEnds,
  EVENTS_CHANNEL,
  encodeNotifications,
  encodeSessionEnds,
  routeEvent,
  SESSION_ENDS_CHANNEL,
  SSE_HEARTBEAT,
  sseFrame,
} from './events.rules.ts';

/** What other modules need of events: to publish one in the transaction of the change it reports. */
export interface EventPublisher {
  /**
   * Sends the event to the users it is about (recipients below, and `also`). Called inside the
   * transaction of the change: the NOTIFY is delivered when it commits and dropped if it rolls back.
   */
  publish(ex: Executor, event: LiveEvent, opts?: { also?: readonly string[] }): Promise<void>;
  /** The users an event about this robot or license goes to now (ShareService reads them before a share ends). */
  recipients(ex: Executor, about: { robotId?: string | undefined; licenseId?: string | undefined }): Promise<string[]>;
}

/** A publisher that publishes nothing: for services built without events (the command line's, some tests'). */
export const NO_EVENTS: EventPublisher = {
  publish: async () => {},
  recipients: async () => [],
};

/** One open stream: where its frames go and how it is ended. */
export interface OpenStream {
  userId: string;
  sessionId: string;
  write(text: string): void;
  end(): void;
}

export interface EventOptions {
  ticketTtlS: number;
  heartbeatS: number;
  /** streams one user may hold open on one instance */
  streamsPerUser: number;
  /** LISTEN on the database; without it this instance publishes but serves no streams */
  listen?: Database['listen'] | undefined;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void } | undefined;
}

/** Ended sessions an instance remembers having heard of, at most (a stream being opened as its session ends). */
const ENDED_REMEMBERED = 10_000;

export const TOO_MANY_STREAMS = 'Too many live event streams are open for this account. Close a tab and try again.';

function addTo(index: Map<string, Set<OpenStream>>, key: string, stream: OpenStream): void {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(stream);
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Live fleet events (docs/decisions/031). Publishing is a NOTIFY in the writer's transaction;
 * every instance LISTENs and routes what it hears, by user id, to the streams it holds. Tickets
 * are rows of the database, so any instance redeems what another issued.
 */
export class EventService implements EventPublisher {
  private readonly byUser = new Map<string, Set<OpenStream>>();
  private readonly bySession = new Map<string, Set<OpenStream>>();
  /**
   * Sessions this instance heard had ended, the latest ENDED_REMEMBERED: a stream whose ticket was
   * redeemed just before its session ended may be attached just after the announcement was heard.
   */
  private readonly endedLately = new Set<string>();
  private stopListening: (() => Promise<void>)[] = [];
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private sweeping: Promise<void> | undefined;
  private listens = 0;
  private sessionListens = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: EventOptions,
  ) {}

  // ---- publishing ----

  recipients(ex: Executor, about: { robotId?: string | undefined; licenseId?: string | undefined }): Promise<string[]> {
    return repo.recipients(ex, about, this.clock.now());
  }

  async publish(ex: Executor, event: LiveEvent, opts: { also?: readonly string[] } = {}): Promise<void> {
    const users = await this.recipients(ex, { robotId: event.robot_id, licenseId: event.license_id });
    for (const payload of encodeNotifications(event, [...users, ...(opts.also ?? [])])) await repo.notify(ex, payload);
  }

  /**
   * Announces that these sessions ended, in the transaction that ended them (delivered when it
   * commits): every instance ends their streams at once, without waiting for its heartbeat.
   */
  async sessionsEnded(ex: Executor, sessionIds: readonly string[]): Promise<void> {
    for (const payload of encodeSessionEnds(sessionIds)) await repo.notify(ex, payload, SESSION_ENDS_CHANNEL);
  }

  // ---- tickets ----

  /** OpenEventStream: a single-use ticket for the caller's session, good for ticketTtlS seconds. */
  async issueTicket(caller: Caller): Promise<{ ticket: string; expiresIn: number }> {
    const ticket = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await repo.insertTicket(this.db, {
      hash: hashOf(ticket),
      userId: caller.userId,
      sessionId: caller.sessionId,
      expiresAt: new Date(now.getTime() + this.options.ticketTtlS * 1000),
      now,
    });
    return { ticket, expiresIn: this.options.ticketTtlS };
  }

  /** The session a ticket opens a stream for; a used, expired or unknown ticket, or a dead session, is a 401. */
  async redeem(ticket: string): Promise<{ userId: string; sessionId: string }> {
    const now = this.clock.now();
    const owner = ticket ? await repo.redeemTicket(this.db, hashOf(ticket), now) : undefined;
    if (!owner || !(await repo.liveSessions(this.db, [owner.sessionId], now)).has(owner.sessionId))
      throw new ApiError('UNAUTHENTICATED', 'ticket: unknown, used or expired; ask for a new one (OpenEventStream)');
    return owner;
  }

  // ---- streams held by this instance ----

  /** How many streams this instance holds (all users). */
  get openStreams(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Whether this instance can take another stream of the user: refused before the answer starts. */
  checkRoom(userId: string): void {
    if ((this.byUser.get(userId)?.size ?? 0) >= this.options.streamsPerUser)
      throw new ApiError('RATE_LIMITED', TOO_MANY_STREAMS);
  }

  /** Holds a stream open and routes the user's events to it; answers how to let it go. */
  attach(stream: OpenStream): () => void {
    this.checkRoom(stream.userId);
    if (this.endedLately.has(stream.sessionId)) {
      stream.end();
      return () => {};
    }
    addTo(this.byUser, stream.userId, stream);
    addTo(this.bySession, stream.sessionId, stream);
    this.send(stream, { kind: 'ready' });
    return () => this.detach(stream);
  }

  private detach(stream: OpenStream): void {
    const set = this.byUser.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) this.byUser.delete(stream.userId);
    const ofSession = this.bySession.get(stream.sessionId);
    ofSession?.delete(stream);
    if (ofSession?.size === 0) this.bySession.delete(stream.sessionId);
  }

  private send(stream: OpenStream, message: StreamMessage): void {
    stream.write(sseFrame(message));
  }

  private close(stream: OpenStream): void {
    this.detach(stream);
    stream.end();
  }

  /** A payload heard on the channel, routed to this instance's streams of the users it names. */
  deliver(payload: string): void {
    const notification = decodeNotification(payload);
    if (!notification) {
      this.options.log?.warn({ bytes: payload.length }, 'unreadable event notification ignored');
      return;
    }
    for (const stream of routeEvent(notification, this.byUser)) this.send(stream, notification.event);
  }

  /** A payload heard on the session-ends channel: this instance's streams of those sessions end now. */
  endSessions(payload: string): void {
    const ids = decodeSessionEnds(payload);
    if (!ids) {
      this.options.log?.warn({ bytes: payload.length }, 'unreadable session-end notification ignored');
      return;
    }
    for (const id of ids) {
      this.endedLately.delete(id);
      this.endedLately.add(id);
      if (this.endedLately.size > ENDED_REMEMBERED)
        this.endedLately.delete(this.endedLately.values().next().value as string);
      for (const stream of [...(this.bySession.get(id) ?? [])]) this.close(stream);
    }
  }

  /**
   * The heartbeat: a comment to every stream (proxies close idle connections), and streams whose
   * session was revoked or expired, or whose account was disabled, are ended. One query for all.
   */
  sweep(): Promise<void> {
    // Cleared in a callback of its own: a sweep that ends at once (no stream open) must not leave
    // `sweeping` set, or no sweep would run again (issue 33).
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    try {
      const streams = [...this.byUser.values()].flatMap((set) => [...set]);
      if (streams.length === 0) return;
      const live = await repo.liveSessions(this.db, [...new Set(streams.map((s) => s.sessionId))], this.clock.now());
      for (const stream of streams)
        if (live.has(stream.sessionId)) stream.write(SSE_HEARTBEAT);
        else this.close(stream);
    } catch (err) {
      this.options.log?.warn({ err }, 'event stream sweep failed');
    }
  }

  /** Starts listening and the heartbeat (on the app's ready). Without `listen`, only publishes. */
  async start(): Promise<void> {
    const { listen } = this.options;
    if (!listen || this.stopListening.length) return;
    this.stopListening.push(
      await listen(
        EVENTS_CHANNEL,
        (payload) => this.deliver(payload),
        () => {
          // After a reconnect, events sent meanwhile are lost: every stream is told to read again.
          this.listens += 1;
          if (this.listens > 1) {
            this.options.log?.warn({ streams: this.openStreams }, 'event listener reconnected; streams told to resync');
            for (const set of this.byUser.values()) for (const stream of set) this.send(stream, { kind: 'resync' });
          }
        },
      ),
      await listen(
        SESSION_ENDS_CHANNEL,
        (payload) => this.endSessions(payload),
        () => {
          // Sessions that ended meanwhile were not heard of: every stream's session is checked now.
          this.sessionListens += 1;
          if (this.sessionListens > 1) void this.sweep();
        },
      ),
    );
    this.heartbeat = setInterval(() => void this.sweep(), this.options.heartbeatS * 1000);
    this.heartbeat.unref();
  }

  /** Ends every stream and stops listening (on the app's close, so a shutdown is not held open). */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const set of [...this.byUser.values()]) for (const stream of [...set]) this.close(stream);
    const stops = this.stopListening;
    this.stopListening = [];
    await Promise.all(stops.map((stop) => stop().catch(() => {})));
  }
}
