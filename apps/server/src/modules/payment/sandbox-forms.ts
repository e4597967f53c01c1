import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Config, sandboxInProduction } from '../../config.ts';
import { deriveKey, safeEqual } from '../../lib/keys.ts';

/** A posted form of a sandbox page, field by field. */
export type Form = Record<string, string>;

/**
 * What the sandbox's server-rendered pages (checkout, billing) share (docs/decisions/017, 020):
 * form posts parsed in the calling plugin only (the API stays JSON), HTML answers that are never
 * cached, and the two checks of a post: it comes from our own origin, and it carries the page's
 * token, an HMAC of the page's id under a key of its own purpose, which a foreign page cannot read.
 */
/** The banner of every sandbox page when production runs the sandbox on purpose (PAYMENTS_PROVIDER=sandbox). */
export const SANDBOX_IN_PRODUCTION =
  'This is the payment sandbox, running in production: no real money moves and no card is charged.';

export function sandboxForms(
  app: FastifyInstance,
  config: Pick<Config, 'JWT_SECRET' | 'PUBLIC_URL' | 'NODE_ENV' | 'STRIPE_SECRET_KEY'>,
  purpose: string,
) {
  const key = deriveKey(config.JWT_SECRET, purpose);
  const publicOrigin = new URL(config.PUBLIC_URL).origin;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const production = sandboxInProduction(config);
  const formToken = (id: string) => createHmac('sha256', key).update(id).digest('base64url');
  return {
    formToken,
    html: (reply: FastifyReply, status: number, body: string) =>
      reply
        .status(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          production
            ? body.replace(
                '<main>',
                `<main><p class="banner" role="alert" data-banner="sandbox-in-production">${SANDBOX_IN_PRODUCTION}</p>`,
              )
            : body,
        ),
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
