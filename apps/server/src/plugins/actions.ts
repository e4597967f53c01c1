import {
  type ActionDef,
  ApiError,
  describeIssues,
  type ErrorObject,
  isPlannedAction,
  type LiveActionName,
  OK,
  OPERATOR_HEADER,
  PERMISSIONS,
  type Permission,
  roleCan,
  type ServiceDef,
  type StaffRole,
} from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { safeEqual } from '../lib/keys.ts';
import type { AuditInput } from '../modules/audit/audit.service.ts';
import type { Caller } from '../modules/auth/auth.sessions.ts';
import { labelAction, UNKNOWN_ACTION } from './metrics.ts';

export interface ActionContext {
  request: FastifyRequest;
  /** the signed-in caller; set for actions whose auth is `body` or `bearer` */
  caller: Caller;
  ip: string;
  /** the API key of an `operator` action (decision 070) */
  key?: OperatorKey | undefined;
}

/** The API key an operator action was called with: a named key, or OPERATOR_TOKEN as "legacy". */
export interface OperatorKey {
  id: string;
  name: string;
  role: StaffRole;
}

export interface PublicContext extends Omit<ActionContext, 'caller'> {
  caller: undefined;
}

/**
 * Who calls a `staff` action (decision 071): a staff member in a passkey session, with the role
 * their account has now, or an API key (OPERATOR_TOKEN being the key "legacy").
 */
export type StaffCaller =
  | { kind: 'staff'; userId: string; email: string; sessionId: string; role: StaffRole }
  | { kind: 'key'; key: OperatorKey; role: StaffRole };

/** A staff caller as the audit trail's actor, with the reason it gave when it gave one. */
export function auditActorOf(staff: StaffCaller, reason?: string): AuditInput['actor'] {
  const who: AuditInput['actor'] =
    staff.kind === 'staff' ? { kind: 'staff', id: staff.userId } : { kind: 'key', id: staff.key.id };
  return reason ? { ...who, reason } : who;
}

export interface StaffContext extends PublicContext {
  staff: StaffCaller;
}

/** The answer a handler returns: the response without its error object (a union stays a union). */
export type ResultOf<D extends ActionDef> =
  z.output<D['response']> extends infer R
    ? R extends unknown
      ? Omit<R, 'error'> & { error?: ErrorObject }
      : never
    : never;
type ContextOf<D extends ActionDef> = D['auth'] extends 'body' | 'bearer'
  ? ActionContext
  : D['auth'] extends 'staff'
    ? StaffContext
    : PublicContext;

/**
 * An answer whose fields are JSON text already (built by the database): the router writes it out
 * without parsing and serialising it again. `T` is the answer it stands for.
 */
export class JsonAnswer<T> {
  declare readonly answer?: T;
  /** field name to its value as JSON text */
  constructor(readonly fields: Readonly<Record<string, string>>) {}

  /** The answer as values, for a caller inside the server. */
  parsed(): T {
    return Object.fromEntries(Object.entries(this.fields).map(([name, json]) => [name, JSON.parse(json)])) as T;
  }

  toJson(error: ErrorObject): string {
    const parts = Object.entries(this.fields).map(([name, json]) => `${JSON.stringify(name)}:${json}`);
    return `{${[...parts, `"error":${JSON.stringify(error)}`].join(',')}}`;
  }
}

export type Handler<D extends ActionDef> = (
  input: z.output<D['request']>,
  ctx: ContextOf<D>,
) => Promise<ResultOf<D> | JsonAnswer<ResultOf<D>>>;
/** A handler for every action of the service that is not planned (planned ones answer UNKNOWN_ACTION) or an alias. */
export type Handlers<S extends ServiceDef> = { [A in LiveActionName<S>]: Handler<S['actions'][A]> };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Mounts one service of the contract: one POST route whose body `action` picks the handler.
     * The request is parsed by the contract's schema (400 naming the field and the rule) and the
     * caller is authenticated as the action says, before the handler runs.
     */
    mountService<S extends ServiceDef>(service: S, handlers: Handlers<S>): void;
    /**
     * The staff credential of a request, as `staff` actions read it (decision 071), for a staff
     * route outside the contract's POST (the release upload): undefined for anyone else, who gets
     * the unknown route's 404.
     */
    identifyStaff(request: FastifyRequest): Promise<StaffCaller | undefined>;
    /** 403 naming the role `permission` needs, and a security entry, unless the staff caller's role has it. */
    requireStaffRole(staff: StaffCaller, name: string, permission: Permission, ip: string): Promise<void>;
  }
}

export interface ActionsOptions {
  /** the key a presented x-operator-token is (a named API key, or OPERATOR_TOKEN as "legacy"), if any */
  identifyKey: (
    secret: string,
    compare: (given: string, legacy: string) => boolean,
  ) => Promise<OperatorKey | undefined>;
  /** a key refused for lack of the role: a security entry of the audit trail */
  onRefused?: (key: OperatorKey, action: string, permission: Permission, ip: string) => Promise<unknown>;
  /** a staff member or key refused a staff action for lack of the role: a security entry */
  onStaffRefused?: (staff: StaffCaller, action: string, permission: Permission, ip: string) => Promise<unknown>;
}

/**
 * Operator actions need an API key in the x-operator-token header whose role has the action's
 * permission (decision 070); OPERATOR_TOKEN is the key "legacy" (admin), compared in constant time.
 * A portal user's session is never enough.
 */
async function checkOperator(
  request: FastifyRequest,
  name: string,
  def: ActionDef,
  opts: ActionsOptions,
): Promise<OperatorKey> {
  const header = request.headers[OPERATOR_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  const key = given ? await opts.identifyKey(given, safeEqual) : undefined;
  if (!key)
    throw new ApiError(
      'FORBIDDEN',
      `${OPERATOR_HEADER}: operator credential missing, wrong or revoked; this action needs an API key`,
    );
  const permission = def.permission;
  if (!permission || !roleCan(key.role, permission)) {
    await opts.onRefused?.(key, name, permission ?? ('jobs.run' as Permission), request.ip);
    throw new ApiError(
      'FORBIDDEN',
      `${OPERATOR_HEADER}: the key "${key.name}" (${key.role}) may not call ${name}; it needs the role ${permission ? PERMISSIONS[permission] : 'admin'}`,
    );
  }
  return key;
}

/**
 * The staff credential of a request (decision 071): a bearer token of a staff session when the
 * request carries one, else an API key in x-operator-token. Undefined for anything else.
 */
async function identifyStaff(
  app: FastifyInstance,
  request: FastifyRequest,
  opts: ActionsOptions,
): Promise<StaffCaller | undefined> {
  if (request.headers.authorization) {
    const caller = await app.staffCaller(request);
    return caller
      ? {
          kind: 'staff',
          userId: caller.userId,
          email: caller.email,
          sessionId: caller.sessionId,
          role: caller.staffRole,
        }
      : undefined;
  }
  const header = request.headers[OPERATOR_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  const key = given ? await opts.identifyKey(given, safeEqual) : undefined;
  return key ? { kind: 'key', key, role: key.role } : undefined;
}

/** A staff caller whose role lacks the action's permission: 403 naming the role, and a security entry. */
async function checkStaffRole(
  staff: StaffCaller,
  name: string,
  permission: Permission | undefined,
  ip: string,
  opts: ActionsOptions,
): Promise<void> {
  if (permission && roleCan(staff.role, permission)) return;
  await opts.onStaffRefused?.(staff, name, permission ?? ('staff.manage' as Permission), ip);
  const who = staff.kind === 'staff' ? staff.email : `the key "${staff.key.name}"`;
  throw new ApiError(
    'FORBIDDEN',
    `role: ${who} (${staff.role}) may not call ${name}; it needs the role ${permission ? PERMISSIONS[permission] : 'admin'}`,
  );
}

/** The staff caller each request of a staff-only service was identified as in its preValidation hook. */
const staffOf = new WeakMap<FastifyRequest, StaffCaller>();

/** The action router: the one way a service of the contract becomes routes. */
async function actionRouter(app: FastifyInstance, opts: ActionsOptions): Promise<void> {
  app.decorate('identifyStaff', function (this: FastifyInstance, request: FastifyRequest) {
    return identifyStaff(this, request, opts);
  });
  app.decorate('requireStaffRole', (staff: StaffCaller, name: string, permission: Permission, ip: string) =>
    checkStaffRole(staff, name, permission, ip, opts),
  );
  app.decorate('mountService', function mountService<
    S extends ServiceDef,
  >(this: FastifyInstance, service: S, handlers: Handlers<S>): void {
    const actions = service.actions as Record<string, ActionDef>;
    const table = handlers as unknown as Record<
      string,
      (input: unknown, ctx: unknown) => Promise<Record<string, unknown> | JsonAnswer<unknown>>
    >;

    // A service only staff may call (/api/admin) does not exist for anyone else (decision 071): the
    // credential is checked before the body is (after Fastify parsed it, as it does for an unknown
    // route too), and anything but a staff credential gets the not-found handler's own answer.
    const staffOnly = Object.values(actions).length > 0 && Object.values(actions).every((d) => d.auth === 'staff');
    const preValidation = staffOnly
      ? async (request: FastifyRequest, reply: FastifyReply) => {
          const staff = await identifyStaff(this, request, opts);
          if (!staff) return reply.callNotFound();
          staffOf.set(request, staff);
        }
      : undefined;

    // The one answer Fastify gives an unknown route and a route differently: a body of a media type
    // no parser takes is 415 on a route, while an unknown route never reads it (404).
    const errorHandler = staffOnly
      ? async (err: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
          if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !(await identifyStaff(this, request, opts)))
            return reply.callNotFound();
          throw err;
        }
      : undefined;

    this.post(
      service.path,
      preValidation && errorHandler ? { preValidation, errorHandler } : {},
      async (request: FastifyRequest, reply: FastifyReply) => {
        // Metrics count by action (plugins/metrics.ts): a name the service does not answer is `unknown`.
        labelAction(request, UNKNOWN_ACTION);
        const body = request.body;
        if (!body || typeof body !== 'object' || Array.isArray(body))
          throw new ApiError('VALIDATION', 'body: must be a JSON object with an action field');
        const name = (body as { action?: unknown }).action;
        if (typeof name !== 'string' || name.length === 0)
          throw new ApiError('VALIDATION', 'action: Required (a string naming the operation)');
        const def = Object.hasOwn(actions, name) ? actions[name] : undefined;
        // An alias is answered by its action's handler (docs/decisions/062).
        const handlerName = def?.aliasOf ?? name;
        const handler = Object.hasOwn(table, handlerName) ? table[handlerName] : undefined;
        // A planned action is written in the contract ahead of the server (docs/decisions/001).
        if (!def || !handler || isPlannedAction(def))
          throw new ApiError('UNKNOWN_ACTION', `action: Unknown action '${name}' for ${service.path}`);
        labelAction(request, name);

        let staff: StaffCaller | undefined;
        if (def.auth === 'staff') {
          // A staff action in a service others call too: the same unknown-route answer, from here.
          staff = staffOf.get(request) ?? (await identifyStaff(this, request, opts));
          if (!staff) return reply.callNotFound();
          // The role before the body: a member short of it learns nothing of the action's rules.
          await checkStaffRole(staff, name, def.permission, request.ip, opts);
        }

        const parsed = def.request.safeParse(body);
        if (!parsed.success) throw new ApiError('VALIDATION', describeIssues(parsed.error));
        const input = parsed.data;

        const key = def.auth === 'operator' ? await checkOperator(request, name, def, opts) : undefined;
        const caller =
          def.auth === 'body' || def.auth === 'bearer' ? await this.authenticate(request, def.auth, input) : undefined;

        const result = await handler(input, { request, caller, ip: request.ip, key, staff });
        reply.status(200);
        if (result instanceof JsonAnswer) return reply.type('application/json; charset=utf-8').send(result.toJson(OK));
        // Object.assign, not a spread: on Node 20 `{ ...result, error }` costs ~1 µs a request.
        return Object.assign({}, result, { error: result.error ?? OK });
      },
    );
  });
}

export const actionsPlugin = fp(actionRouter, {
  name: 'actions',
  fastify: '5.x',
  dependencies: ['errors', 'security', 'sessions'],
  decorators: { fastify: ['authenticate', 'staffCaller'] },
});
