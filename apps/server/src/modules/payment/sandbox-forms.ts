import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { deriveKey, safeEqual } from '../../lib/keys.ts';

/** A posted form of a sandbox page, field by field. */
export type Form = Record<string, string>;

/**
 * What the sandbox's server-rendered pages (checkout, billing) share (docs/decisions/017, 020):
 * form posts parsed in the calling plugin only (the API stays JSON), HTML answers that are never
 * cached, and the two checks of a post: it comes from our own origin, and it carries the page's
 * token, an HMAC of the page's id under a key of its own purpose, which a foreign page cannot read.
 */
export function sandboxForms(app: FastifyInstance, config: Pick<Config, 'JWT_SECRET' | 'PUBLIC_URL'>, purpose: string) {
  const key = deriveKey(config.JWT_SECRET, purpose);
  const publicOrigin = new URL(config.PUBLIC_URL).origin;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const formToken = (id: string) => createHmac('sha256', key).update(id).digest('base64url');
  return {
    formToken,
    html: (reply: FastifyReply, status: number, body: string) =>
      reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body),
    /** Origin, else Referer, is this portal (its public address or the address it was reached at). */
    fromOurOrigin(request: FastifyRequest): boolean {
      const origin =
        request.headers.origin ?? (request.headers.referer ? safeOrigin(request.headers.referer) : undefined);
      return !!origin && [publicOrigin, `${request.protocol}://${request.host}`].includes(origin);
    },
    /** The post carries the token of the page with this id. */
    tokenMatches: (body: Form, id: string) => typeof body.token === 'string' && safeEqual(body.token, formToken(id)),
  };
}

export function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
