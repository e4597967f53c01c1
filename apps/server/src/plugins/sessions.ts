import { ApiError } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller, Sessions } from '../modules/auth/auth.sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The signed-in caller behind an access token (from the body or the Authorization header, as
     * the action's contract says), or a 401/403 in the contract's error shape.
     */
    authenticate(request: FastifyRequest, how: 'body' | 'bearer', input: unknown): Promise<Caller>;
  }
}

export interface SessionsOptions {
  sessions: Sessions;
}

const BEARER = /^Bearer\s+(.+)$/i;

/** The email a request names for itself, wherever the spec's shape puts it. */
function claimedEmail(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const o = input as Record<string, unknown>;
  const user = o.user as Record<string, unknown> | undefined;
  const candidates = [o.email, o.user_email, user?.email];
  return candidates.find((c): c is string => typeof c === 'string');
}

/**
 * Authentication in one place: every signed-in action goes through `app.authenticate`, which
 * also refuses a body that names another account (an email or a user_id) than the caller's own.
 */
async function authentication(app: FastifyInstance, opts: SessionsOptions): Promise<void> {
  app.decorate('authenticate', async (request: FastifyRequest, how: 'body' | 'bearer', input: unknown) => {
    const token =
      how === 'body'
        ? (input as { token?: unknown } | undefined)?.token
        : BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (typeof token !== 'string' || token.length === 0)
      throw new ApiError('UNAUTHENTICATED', 'Missing required authentication');
    const caller = await opts.sessions.authenticate(token);
    const email = claimedEmail(input);
    if (email !== undefined && email.trim().toLowerCase() !== caller.email)
      throw new ApiError('FORBIDDEN', 'email: does not match the signed-in account');
    // The spec's slot and dial-time requests also carry user_id: it names the caller or nobody.
    const userId = (input as { user_id?: unknown } | undefined)?.user_id;
    if (typeof userId === 'string' && userId !== '' && userId !== caller.userId)
      throw new ApiError('FORBIDDEN', 'user_id: does not match the signed-in account');
    return caller;
  });
}

export const sessionsPlugin = fp(authentication, { name: 'sessions', fastify: '5.x', dependencies: ['errors'] });
