import * as z from 'zod/mini';
import type { Permission } from './domain/staff-roles.ts';
import { errorObject } from './errors.ts';
import { withInputRules } from './safe-input.ts';

/**
 * How a call proves who is calling:
 * - `none`: anyone (sign-in, registration, forgot password...).
 * - `body`: the access token travels in the body (`token`), as the spec's /api/useraction calls do;
 *   that service carries no auth header.
 * - `bearer`: an `Authorization: Bearer` access token, as every other service.
 * - `refresh`: the refresh token in the body proves the caller.
 * - `operator`: an operator, not a portal user: the `x-operator-token` header carries an API key
 *   (or the server's OPERATOR_TOKEN, the key "legacy") whose role has the action's `permission`. No
 *   user session is involved; a body `email` names the target account.
 * - `staff`: the back office (issue 34, docs/decisions/071): a passkey session of an account with a
 *   staff role (`Authorization: Bearer`), or an API key (`x-operator-token`), whose role has the
 *   action's `permission`, re-read on every call. Anyone else gets the unknown-route 404.
 */
/** The header that carries an operator's credential (auth kind `operator`). */
export const OPERATOR_HEADER = 'x-operator-token';

export type AuthKind = 'none' | 'body' | 'bearer' | 'refresh' | 'operator' | 'staff';

export interface ActionDef<
  Req extends z.ZodMiniType = z.ZodMiniType,
  Res extends z.ZodMiniType = z.ZodMiniType,
  Auth extends AuthKind = AuthKind,
> {
  readonly request: Req;
  readonly response: Res;
  readonly auth: Auth;
  readonly summary: string;
  /**
   * What an `operator` or `staff` action needs of its caller (issue 34, decision 070): the key's or
   * the staff member's role must have this permission (roleCan). Every such action names one.
   */
  readonly permission?: Permission;
  /** Called by operators or the hub rather than the portal screens. */
  readonly caller?: 'portal' | 'hub' | 'operator' | 'fulfilment';
  /**
   * `planned`: written ahead of the server inside a live service; an open issue builds it. The
   * server mounts no handler for it and answers UNKNOWN_ACTION, as for any unknown action.
   */
  readonly status?: ActionStatus;
  /**
   * Set on another name of an action of the same service (`alias`): the server answers it as that
   * action, and callers send the action's own name (docs/decisions/062).
   */
  readonly aliasOf?: string;
}

/** Whether the server answers one action of a live service (`planned`: not yet). */
export type ActionStatus = 'live' | 'planned';

/** The actions of a service that need a handler on the server: every one not planned and not an alias. */
export type LiveActionName<S extends ServiceDef> = {
  [A in keyof S['actions']]: S['actions'][A]['status'] extends 'planned'
    ? never
    : S['actions'][A] extends { readonly aliasOf: string }
      ? never
      : A;
}[keyof S['actions']];

/** Whether an action is answered by the server (its service live and the action not planned). */
export function isPlannedAction(def: ActionDef): boolean {
  return def.status === 'planned';
}

/**
 * - `live`: the server mounts the service.
 * - `planned`: the contract is written ahead of the server; an open issue builds it. Callers must
 *   not expect it to answer (the server answers 404), and a server test fails once it is mounted
 *   while still marked planned.
 */
export type ServiceStatus = 'live' | 'planned';

export interface ServiceDef<
  Path extends string = string,
  Actions extends Record<string, ActionDef> = Record<string, ActionDef>,
> {
  readonly name: string;
  readonly path: Path;
  readonly actions: Actions;
  readonly status: ServiceStatus;
}

export function action<
  Req extends z.ZodMiniType,
  Res extends z.ZodMiniType,
  const Auth extends AuthKind,
  const Status extends ActionStatus = 'live',
>(
  def: ActionDef<Req, Res, Auth> & { readonly status?: Status },
): ActionDef<Req, Res, Auth> & { readonly status: Status } {
  // Every request also obeys the rules of safe-input.ts (no NUL, no lone surrogate, bounded nesting).
  // The web app's build leaves requests out (apps/web/vite-plugins.ts, decision 036): none to extend.
  const request = (def.request as Req | undefined) && withInputRules(def.request);
  return { ...def, request: request as Req, status: (def.status ?? 'live') as Status };
}

/**
 * `def` under another name, `name` being the action's own: the name a call had before it took the
 * spec's, answered for the callers built against it (docs/decisions/062).
 */
export function alias<const D extends ActionDef>(name: string, def: D): D & { readonly aliasOf: string } {
  return { ...def, aliasOf: name };
}

export function service<const Path extends string, const Actions extends Record<string, ActionDef>>(
  name: string,
  path: Path,
  actions: Actions,
  options: { status?: ServiceStatus } = {},
): ServiceDef<Path, Actions> {
  for (const [actionName, def] of Object.entries(actions)) {
    const target = def.aliasOf === undefined ? undefined : actions[def.aliasOf];
    if (def.aliasOf !== undefined && (!target || target.aliasOf !== undefined))
      throw new Error(`${path} ${actionName}: an alias of ${def.aliasOf}, which is no action of its own`);
  }
  return { name, path, actions, status: options.status ?? 'live' };
}

/** Every response carries the error object; success answers `Success: true`. */
export function response<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object({ ...shape, error: errorObject });
}

export type RequestOf<S extends ServiceDef, A extends keyof S['actions']> = z.input<S['actions'][A]['request']>;
export type ParsedRequestOf<S extends ServiceDef, A extends keyof S['actions']> = z.output<S['actions'][A]['request']>;
export type ResponseOf<S extends ServiceDef, A extends keyof S['actions']> = z.output<S['actions'][A]['response']>;

/** A zod failure as one line that names each field and the rule it broke. */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : 'body';
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
