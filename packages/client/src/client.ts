import {
  type ActionDef,
  describeIssues,
  ErrorCodes,
  type ErrorObject,
  errorObjectInput,
  OPERATOR_HEADER,
  type RequestOf,
  type ResponseOf,
  type ServiceDef,
} from '@portal/contract';
import { ClientError, NO_RESPONSE } from './client-error.ts';

/** Where the CSRF token comes from (spec/000 §7): a GET on this path answers it in a header. */
export const CSRF_PATH = '/api/useraction';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The caller's session as the client needs it. The web app backs it with its cross-tab store,
 * the hub with its credentials file, a test with a variable (see `refreshingTokens`).
 */
export interface Tokens {
  /** A usable access token, refreshed first when near expiry. Throws `unauthenticated` without a session. */
  access(): Promise<string>;
  /** A new access token after the server refused `rejected`. Throws when the session cannot be renewed. */
  refresh(rejected: string): Promise<string>;
}

export interface ClientOptions {
  /** The portal's address: '' in the browser (same origin), `http://127.0.0.1:3000` elsewhere. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The session of signed-in calls; without it they fail with `unauthenticated`. */
  tokens?: Tokens;
  /** An Origin header to send: for callers outside a browser (a browser sends its own). */
  origin?: string;
  /**
   * Keep one CSRF token until the server refuses it, for long-lived processes. By default a
   * token is fetched before each POST, as the spec says.
   */
  reuseCsrf?: boolean;
  /** Check each request against the contract before sending it (a typo fails here, not as a 400). */
  validateRequests?: boolean;
  /** An operator's credential, sent with the actions the contract marks `operator`. */
  operatorToken?: string;
  /** Wait between retries of `retryTransient` calls (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

export interface CallOptions {
  /**
   * Retry when the portal could not be reached or answered 5xx. Only for calls that are safe to
   * repeat, such as UPDATE_TIME with its idempotency key.
   */
  retryTransient?: boolean;
  /**
   * A CSRF token already being fetched (`client.csrf()`), for the first POST of this call: a caller
   * that knows a call is coming asks for its token beside the call it waits for. A retry fetches its
   * own; a token that could not be fetched is replaced by one fetched then.
   */
  csrf?: Promise<string>;
}

/** What a caller writes: the action is the call's, and a body token is added by the client. */
export type BodyOf<S extends ServiceDef, A extends keyof S['actions']> = S['actions'][A]['auth'] extends 'body'
  ? Omit<RequestOf<S, A>, 'token' | 'action'>
  : Omit<RequestOf<S, A>, 'action'>;

export interface RawAnswer {
  status: number;
  headers: Headers;
  /** the parsed JSON body, or undefined when the body was not JSON */
  json: unknown;
}

export interface SendOptions {
  bearer?: string | undefined;
  /** a CSRF token to send; `null` sends none; by default one is fetched */
  csrf?: string | null;
  headers?: Record<string, string>;
  /** a body sent as is instead of JSON.stringify(body) */
  raw?: string;
}

export interface Client {
  readonly baseUrl: string;
  /** Calls one action of the contract and answers its typed response, or throws ClientError. */
  call<S extends ServiceDef, A extends keyof S['actions'] & string>(
    service: S,
    action: A,
    body: BodyOf<S, A>,
    options?: CallOptions,
  ): Promise<ResponseOf<S, A>>;
  /** A fresh CSRF token. */
  csrf(): Promise<string>;
  /** One POST as the protocol sends it, without reading the answer as a call: for tests of the server itself. */
  send(path: string, body: unknown, options?: SendOptions): Promise<RawAnswer>;
  /** The same client with another session. */
  withTokens(tokens: Tokens | undefined): Client;
}

const TRANSIENT_RETRY_DELAYS_MS = [500, 1_500];

function errorOf(json: unknown): ErrorObject | undefined {
  const parsed = errorObjectInput.safeParse((json as { error?: unknown } | null | undefined)?.error);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The one action client (spec/000 §7): a CSRF token before each POST, the access token in the
 * body for /api/useraction and as a Bearer header elsewhere, one refresh-and-retry on a 401/403
 * other than code 32, and one ClientError for every failure.
 */
export function createClient(options: ClientOptions = {}): Client {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const originHeader: Record<string, string> = options.origin ? { origin: options.origin } : {};
  let cachedCsrf: string | undefined;

  async function request(path: string, init: RequestInit): Promise<RawAnswer> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, { credentials: 'same-origin', redirect: 'error', ...init });
    } catch {
      throw new ClientError({ kind: 'network', status: 0, description: NO_RESPONSE, call: path });
    }
    // A body that could not be read to its end (the page was left mid-answer and the browser aborted
    // it, the connection dropped) is no answer either: `network`, like no answer at all, so a session
    // whose check or refresh was cut off is kept. Only an answer read whole can refuse it.
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new ClientError({ kind: 'network', status: 0, description: NO_RESPONSE, call: path });
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json };
  }

  async function csrf(): Promise<string> {
    const answer = await request(CSRF_PATH, { method: 'GET', headers: originHeader });
    const token = answer.headers.get(CSRF_HEADER);
    // A refusal in the contract's shape says why (an address that is not the portal's names the one
    // to use, docs/operations.md#one-address-public_url): the caller is told that, not the missing header.
    const refusal = token ? undefined : errorOf(answer.json);
    if (refusal && refusal.Success === false) throw ClientError.fromAnswer(answer.status, refusal, CSRF_PATH);
    if (!token)
      throw new ClientError({
        kind: answer.status >= 500 ? 'server' : 'invalid_response',
        status: answer.status,
        description: `No CSRF token in the answer to GET ${CSRF_PATH} (HTTP ${answer.status})`,
        call: CSRF_PATH,
      });
    return token;
  }

  async function send(path: string, body: unknown, opts: SendOptions = {}): Promise<RawAnswer> {
    let token = opts.csrf;
    if (token === undefined) {
      token = options.reuseCsrf && cachedCsrf ? cachedCsrf : await csrf();
      if (options.reuseCsrf) cachedCsrf = token;
    }
    return request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...originHeader,
        ...(token ? { [CSRF_HEADER]: token } : {}),
        ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
        ...opts.headers,
      },
      body: opts.raw ?? JSON.stringify(body),
    });
  }

  async function call<S extends ServiceDef, A extends keyof S['actions'] & string>(
    service: S,
    action: A,
    body: BodyOf<S, A>,
    callOptions: CallOptions = {},
  ): Promise<ResponseOf<S, A>> {
    // A token fetched ahead, for the first POST; one that could not be fetched counts as none. Caught
    // here, so a call refused before it sends leaves no unhandled rejection.
    let csrfAhead: Promise<string | undefined> | undefined = callOptions.csrf?.catch(() => undefined);
    const name = `${service.path} ${action}`;
    const def: ActionDef | undefined = Object.hasOwn(service.actions, action) ? service.actions[action] : undefined;
    if (!def)
      throw new ClientError({ kind: 'validation', status: 0, description: `${name}: no such action`, call: name });
    // A staff action (issue 34) goes with the session when the client has one, else with the API key.
    const staffBearer = def.auth === 'staff' && Boolean(options.tokens);
    const signedIn = def.auth === 'body' || def.auth === 'bearer' || staffBearer;
    const keyHeader = def.auth === 'operator' || (def.auth === 'staff' && !staffBearer);
    if (signedIn && !options.tokens)
      throw new ClientError({
        kind: 'unauthenticated',
        status: 0,
        description: 'Missing required authentication',
        call: name,
      });
    if (keyHeader && !options.operatorToken)
      throw new ClientError({
        kind: 'unauthenticated',
        status: 0,
        description: `${OPERATOR_HEADER}: no operator credential`,
        call: name,
      });
    const headers: Record<string, string> = keyHeader ? { [OPERATOR_HEADER]: options.operatorToken as string } : {};

    let token = signedIn ? await (options.tokens as Tokens).access() : undefined;
    let refreshed = false;
    let csrfRetried = false;
    let transientTries = 0;
    const retryTransient = async (): Promise<boolean> => {
      const delay = TRANSIENT_RETRY_DELAYS_MS[transientTries];
      if (!callOptions.retryTransient || delay === undefined) return false;
      transientTries += 1;
      await sleep(delay);
      return true;
    };

    for (;;) {
      const payload = { action, ...(body as object), ...(def.auth === 'body' ? { token } : {}) };
      if (options.validateRequests) {
        const checked = def.request.safeParse(payload);
        if (!checked.success)
          throw new ClientError({
            kind: 'validation',
            status: 0,
            description: describeIssues(checked.error),
            call: name,
          });
      }
      const ahead = await csrfAhead;
      csrfAhead = undefined;
      let answer: RawAnswer;
      try {
        answer = await send(service.path, payload, {
          bearer: def.auth === 'bearer' || staffBearer ? token : undefined,
          headers,
          ...(ahead ? { csrf: ahead } : {}),
        });
      } catch (err) {
        if (err instanceof ClientError && err.kind === 'network' && (await retryTransient())) continue;
        throw err instanceof ClientError ? new ClientError({ ...err, description: err.description, call: name }) : err;
      }
      const { status, json } = answer;
      const error = errorOf(json);
      if (json === undefined || (!error && status >= 400)) {
        if (status >= 500 && (await retryTransient())) continue;
        throw new ClientError({
          kind: status >= 500 ? 'server' : 'invalid_response',
          status,
          description: json === undefined ? NO_RESPONSE : `Request failed (HTTP ${status})`,
          call: name,
        });
      }
      if (status < 400 && error?.Success !== false) {
        const parsed = def.response.safeParse(json);
        if (!parsed.success)
          throw new ClientError({
            kind: 'invalid_response',
            status,
            description: `The answer to ${action} does not match the contract: ${describeIssues(parsed.error)}`,
            call: name,
          });
        return parsed.data as ResponseOf<S, A>;
      }
      const code = error?.Code;
      // A CSRF token can expire between calls of a long-lived process: one fresh token is enough.
      if (code === ErrorCodes.CSRF.code && !csrfRetried) {
        csrfRetried = true;
        cachedCsrf = undefined;
        continue;
      }
      // /api/admin answers an expired staff token with the unknown-route 404 (decision 071): one refresh tells.
      if (
        signedIn &&
        !refreshed &&
        (staffBearer ? status === 404 && code === ErrorCodes.NOT_FOUND.code : status === 401 || status === 403) &&
        code !== ErrorCodes.EMAIL_NOT_VERIFIED.code &&
        code !== ErrorCodes.CSRF.code
      ) {
        refreshed = true;
        token = await (options.tokens as Tokens).refresh(token as string);
        continue;
      }
      if (status >= 500 && (await retryTransient())) continue;
      throw ClientError.fromAnswer(status, error, name);
    }
  }

  const client: Client = {
    baseUrl,
    call,
    csrf,
    send,
    withTokens: (tokens) => createClient({ ...options, tokens }),
  };
  return client;
}
