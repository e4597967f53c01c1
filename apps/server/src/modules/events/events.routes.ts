import { EVENT_STREAM_PATH, EVENT_TICKET_PARAM, events } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** Tickets an account may ask for per RATE window: a reconnecting tab asks at most every few seconds. */
const TICKET_WINDOW_S = 10 * 60;

/**
 * The live event stream (docs/decisions/031): OpenEventStream answers a ticket; `GET
 * EVENT_STREAM_PATH?ticket=…` redeems it and holds a server-sent events stream open. The ticket is
 * worthless once redeemed, and the one-line request log writes the path without its query.
 */
async function eventsRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { events: service, limiter } = services;

  app.mountService(events, {
    async OpenEventStream(_input, { caller }) {
      await limiter.hit(
        `events:ticket:acct:${caller.userId}`,
        config.RATE_EVENT_TICKETS_PER_ACCOUNT,
        TICKET_WINDOW_S,
        'Too many live event connections. Please try again later.',
      );
      const { ticket, expiresIn } = await service.issueTicket(caller);
      return {
        ticket,
        expires_in: expiresIn,
        stream_path: `${EVENT_STREAM_PATH}?${EVENT_TICKET_PARAM}=${encodeURIComponent(ticket)}`,
      };
    },
  });

  app.get(EVENT_STREAM_PATH, { compress: false }, async (request, reply) => {
    const ticket = (request.query as Record<string, unknown>)[EVENT_TICKET_PARAM];
    // Refusals answer the contract's error object, before the stream starts.
    const owner = await service.redeem(typeof ticket === 'string' ? ticket : '');
    service.checkRoom(owner.userId);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-content-type-options': 'nosniff',
      // nginx and similar proxies would otherwise hold the events back in a buffer
      'x-accel-buffering': 'no',
    });
    // A client that goes away lets its stream go; a stream the server ends (session over, shutdown) closes the response.
    const release = service.attach({
      userId: owner.userId,
      sessionId: owner.sessionId,
      write: (text) => {
        if (!res.writableEnded) res.write(text);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    });
    res.on('close', release);
  });

  app.addHook('onReady', () => service.start());
  // Before the server waits for requests in flight to end: open streams would hold it for ever.
  app.addHook('preClose', () => service.stop());
}

export const eventsPlugin = fp(eventsRoutes, { name: 'events-routes', dependencies: ['actions'], encapsulate: true });
