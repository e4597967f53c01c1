import { ApiError, type StaffRole } from '@portal/contract';
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
    /**
     * The staff member behind the request's bearer token (issue 34, decision 071): a live session
     * started with a passkey of an account that has a role now. Undefined for anything else (no
     * token, an expired or revoked one, a customer, a staff account in a password session): the
     * admin routes answer all of those alike.
     */
    staffCaller(request: FastifyRequest): Promise<(Caller & { staffRole: StaffRole }) | undefined>;
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

  app.decorate('staffCaller', async (request: FastifyRequest) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return undefined;
    const caller = await opts.sessions.authenticate(token).catch((err: unknown) => {
      if (err instanceof ApiError && err.status < 500) return undefined;
      throw err;
    });
    const staffRole = caller?.staffRole;
    return caller && staffRole ? { ...caller, staffRole } : undefined;
  });
}

export const sessionsPlugin = fp(authentication, { name: 'sessions', fastify: '5.x', dependencies: ['errors'] });
