import {
  type ActionDef,
  ApiError,
  describeIssues,
  ErrorCodes,
  type ErrorObject,
  errorBody,
  OK,
  type ServiceDef,
} from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { safeEqual } from '../lib/keys.ts';
import type { Caller } from '../modules/auth/auth.sessions.ts';

export interface ActionContext {
  request: FastifyRequest;
  /** the signed-in caller; set for actions whose auth is `body` or `bearer` */
  caller: Caller;
  ip: string;
}

export interface PublicContext extends Omit<ActionContext, 'caller'> {
  caller: undefined;
}

/** The answer a handler returns: the response without its error object (a union stays a union). */
type ResultOf<D extends ActionDef> =
  z.output<D['response']> extends infer R
    ? R extends unknown
      ? Omit<R, 'error'> & { error?: ErrorObject }
      : never
    : never;
type ContextOf<D extends ActionDef> = D['auth'] extends 'body' | 'bearer' ? ActionContext : PublicContext;

export type Handler<D extends ActionDef> = (input: z.output<D['request']>, ctx: ContextOf<D>) => Promise<ResultOf<D>>;
export type Handlers<S extends ServiceDef> = { [A in keyof S['actions']]: Handler<S['actions'][A]> };

/** The email a request names for itself, wherever the spec's shape puts it. */
function claimedEmail(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const o = input as Record<string, unknown>;
  const user = o.user as Record<string, unknown> | undefined;
  const candidates = [o.email, o.user_email, user?.email];
  return candidates.find((c): c is string => typeof c === 'string');
}

/**
 * Mounts one service of the contract: one POST route whose body `action` picks the handler. The
 * request is parsed by the contract's schema (400 naming the field and the rule), the caller is
 * authenticated as the action says, and a body that names an email must name the caller's own.
 */
export function mountService<S extends ServiceDef>(app: FastifyInstance, service: S, handlers: Handlers<S>): void {
  const actions = service.actions as Record<string, ActionDef>;
  const table = handlers as unknown as Record<
    string,
    (input: unknown, ctx: unknown) => Promise<Record<string, unknown>>
  >;

  app.post(service.path, async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new ApiError('VALIDATION', 'body: must be a JSON object with an action field');
    const name = (body as { action?: unknown }).action;
    if (typeof name !== 'string' || name.length === 0)
      throw new ApiError('VALIDATION', 'action: Required (a string naming the operation)');
    const def = Object.hasOwn(actions, name) ? actions[name] : undefined;
    const handler = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!def || !handler) throw new ApiError('UNKNOWN_ACTION', `action: Unknown action '${name}' for ${service.path}`);

    const parsed = def.request.safeParse(body);
    if (!parsed.success) throw new ApiError('VALIDATION', describeIssues(parsed.error));
    const input = parsed.data;

    let caller: Caller | undefined;
    if (def.auth === 'operator') checkOperator(request, app.deps.config.OPERATOR_TOKEN);
    if (def.auth === 'body' || def.auth === 'bearer') {
      const token =
        def.auth === 'body'
          ? (input as { token?: unknown }).token
          : /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (typeof token !== 'string' || token.length === 0)
        throw new ApiError('UNAUTHENTICATED', 'Missing required authentication');
      caller = await app.sessions.authenticate(token);
      const email = claimedEmail(input);
      if (email !== undefined && email.trim().toLowerCase() !== caller.email)
        throw new ApiError('FORBIDDEN', 'email: does not match the signed-in account');
    }

    const result = await handler(input, { request, caller, ip: request.ip });
    reply.status(200);
    return { ...result, error: result.error ?? OK };
  });
}

export const OPERATOR_HEADER = 'x-operator-token';

/**
 * Operator actions need the OPERATOR_TOKEN in the x-operator-token header, compared in constant
 * time. A portal user's session is not enough: there are no roles in the portal.
 */
function checkOperator(request: FastifyRequest, configured: string | undefined): void {
  if (!configured)
    throw new ApiError('FORBIDDEN', `${OPERATOR_HEADER}: operator actions are disabled (OPERATOR_TOKEN is not set)`);
  const header = request.headers[OPERATOR_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given || !safeEqual(given, configured))
    throw new ApiError(
      'FORBIDDEN',
      `${OPERATOR_HEADER}: operator credential missing or wrong; this action is for operators only`,
    );
}

/** Turns every failure into the contract's error object; a 5xx never carries internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
    if (err instanceof ApiError) {
      if (err.status >= 500) request.log.error({ err }, 'action failed');
      return reply.status(err.status).send(errorBody(err.errorName, err.message));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const description =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'body: Malformed JSON'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'body: Content-Type must be application/json'
            : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'body: Request body is too large'
              : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'body: Empty JSON body'
                : err.message;
      const name = status === 429 ? 'RATE_LIMITED' : status === 404 ? 'NOT_FOUND' : 'VALIDATION';
      return reply
        .status(status)
        .send({ error: { Success: false, Code: ErrorCodes[name].code, Description: description } });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', `Internal server error (request ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
