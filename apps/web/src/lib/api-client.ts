import { type ErrorObject, errorObjectInput, type RequestOf, type ResponseOf, type ServiceDef } from '@portal/contract';
import { readSession, refreshSession, SessionError, validAccessToken } from './session';

/**
 * The one way the web app calls the server (spec/000 §7): a CSRF token first, then a POST of the
 * action to its service. Signed-in calls carry the access token (in the body for /api/useraction,
 * as a Bearer header elsewhere), refreshed first when near expiry; a 401/403 other than code 32
 * refreshes once and retries. Failures become ApiCallError with the server's Description.
 */

export class ApiCallError extends Error {
  /** the request fields the server named, e.g. `user.password` */
  readonly fields: string[];
  constructor(
    description: string,
    readonly code: number | undefined,
    readonly status: number,
  ) {
    const { message, fields } = splitDescription(description);
    super(message);
    this.name = 'ApiCallError';
    this.fields = fields;
  }
}

/**
 * The server names the field of each problem (`user.password: Current password is incorrect`);
 * people read the rule, the form knows the field.
 */
export function splitDescription(description: string): { message: string; fields: string[] } {
  const fields: string[] = [];
  const parts = description.split('; ').map((part) => {
    const m = /^([A-Za-z_][\w.[\]-]*): (.+)$/s.exec(part);
    if (!m) return part;
    fields.push(m[1] as string);
    return m[2] as string;
  });
  return { message: [...new Set(parts)].join(' '), fields };
}

export const MISSING_AUTH = 'Missing required authentication';
/** A /api/useraction call that carries the session token in its body, without a session. */
export const NO_USER_TOKEN = 'User token is not available';
const MISSING_AUTH_MESSAGES = new Set([
  MISSING_AUTH,
  NO_USER_TOKEN,
  'Missing required authentication data',
  'No access token found',
  'No refresh token provided',
]);
const NO_RESPONSE = 'No response received from server';

/** The session is missing: no retry will help, and the user has to sign in again. */
export function isMissingAuth(err: unknown): boolean {
  return err instanceof Error && MISSING_AUTH_MESSAGES.has(err.message);
}

/**
 * A failed call as the spec names it ("Failed to fetch licenses", "Failed to check remaining
 * time"...), keeping the status and code the retry policy reads. A missing session keeps its own
 * message, which the screens and the retry policy recognise; anything that is not an ApiCallError
 * (a bug, a network failure outside callAction) becomes one with status 0.
 */
export function withMessage(err: unknown, message: string): ApiCallError {
  if (isMissingAuth(err))
    return err instanceof ApiCallError ? err : new ApiCallError((err as Error).message, undefined, 401);
  if (err instanceof ApiCallError) return new ApiCallError(message, err.code, err.status);
  return new ApiCallError(message, undefined, 0);
}

async function csrfToken(): Promise<string> {
  try {
    const res = await fetch('/api/useraction', { method: 'GET', credentials: 'same-origin' });
    return res.headers.get('x-csrf-token') ?? '';
  } catch {
    throw new ApiCallError(NO_RESPONSE, undefined, 0);
  }
}

async function post(
  path: string,
  body: unknown,
  bearer?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const csrf = await csrfToken();
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': csrf,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiCallError(NO_RESPONSE, undefined, 0);
  }
  const json = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!json) throw new ApiCallError(NO_RESPONSE, undefined, res.status);
  return { status: res.status, json };
}

function errorOf(json: Record<string, unknown>): ErrorObject | undefined {
  const parsed = errorObjectInput.safeParse(json.error);
  return parsed.success ? parsed.data : undefined;
}

/** The body a caller writes: the session token is added here for signed-in actions, never by callers. */
type BodyOf<S extends ServiceDef, A extends keyof S['actions']> = S['actions'][A]['auth'] extends 'body' | 'bearer'
  ? Omit<RequestOf<S, A>, 'token' | 'action'>
  : Omit<RequestOf<S, A>, 'action'>;

export interface CallOptions {
  /** a message for failures that carry no Description */
  fallbackMessage?: string;
}

export async function callAction<S extends ServiceDef, A extends keyof S['actions'] & string>(
  service: S,
  action: A,
  body: BodyOf<S, A>,
  options: CallOptions = {},
): Promise<ResponseOf<S, A>> {
  const def = service.actions[action];
  if (!def) throw new ApiCallError(`Unknown action ${action}`, undefined, 0);
  const signedIn = def.auth === 'body' || def.auth === 'bearer';

  const attempt = async (token?: string) => {
    const payload = { action, ...body, ...(token ? { token } : {}) };
    return post(service.path, payload, def.auth === 'bearer' ? token : undefined);
  };

  let token: string | undefined;
  if (signedIn) {
    try {
      token = await validAccessToken();
    } catch (err) {
      if (err instanceof SessionError && err.kind === 'network') throw new ApiCallError(err.message, undefined, 0);
      if (err instanceof SessionError && err.kind === 'missing' && err.message !== MISSING_AUTH)
        throw new ApiCallError(err.message, undefined, 401);
      throw new ApiCallError(def.auth === 'body' ? NO_USER_TOKEN : MISSING_AUTH, undefined, 401);
    }
  }
  let { status, json } = await attempt(token);
  let error = errorOf(json);
  if (signedIn && (status === 401 || status === 403) && error?.Code !== 32 && readSession().refreshToken) {
    try {
      token = await refreshSession(true);
    } catch {
      throw new ApiCallError(MISSING_AUTH, 101, 401);
    }
    ({ status, json } = await attempt(token));
    error = errorOf(json);
  }
  if (status >= 400 || (error && !error.Success)) {
    const message = error?.Description || options.fallbackMessage || `Request failed (${status})`;
    throw new ApiCallError(message, error?.Code, status);
  }
  const parsed = def.response.safeParse(json);
  if (!parsed.success) throw new ApiCallError(options.fallbackMessage ?? NO_RESPONSE, undefined, status);
  return parsed.data as ResponseOf<S, A>;
}
