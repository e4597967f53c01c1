import { createHash, randomUUID } from 'node:crypto';
import {
  type ActionDef,
  accessTokenExpired,
  auth,
  describeIssues,
  ErrorCodes,
  errorObjectInput,
  license,
  type PublicUser,
  type RequestOf,
  type ResponseOf,
  type Robot,
  type RobotLicense,
  refreshTokenExpired,
  robots,
  type ServiceDef,
  time,
  type UserTime,
  useraction,
} from '@portal/contract';
import type { Credentials, CredentialsStore } from './hub-credentials.ts';
import { portalBase } from './hub-login.ts';

/** A failed call: the server's Code and Description, or a local reason (no Code) when it never answered. */
export class HubError extends Error {
  override name = 'HubError';
  constructor(
    description: string,
    readonly code?: number,
    readonly status?: number,
  ) {
    super(description);
  }
}

/** The portal never answered (down, wrong address, network): the one failure worth retrying as is. */
export class PortalUnreachable extends HubError {
  override name = 'PortalUnreachable';
}

export const NOT_SIGNED_IN = 'Not signed in; run `login` first.';
const SESSION_OVER = 'The hub session has ended (signed out, expired or revoked); run `login` again.';

export interface HubClientOptions {
  portal: string;
  credentials?: Credentials;
  /** Where rotated token pairs are saved; without it they live only in this process. */
  store?: CredentialsStore;
  fetch?: typeof fetch;
  nowMs?: () => number;
}

export interface CallOptions {
  /**
   * Retry when the portal could not be reached or answered 5xx. Only for calls that are safe to
   * repeat, such as UPDATE_TIME with its idempotency key (the same body is sent again).
   */
  retryTransient?: boolean;
}

/** One line of `robots`: a license and, when paired, its robot; or a registered robot without a license (license_id ''). */
export interface RobotRow {
  license_id: string;
  make: string;
  model: string;
  robot_id: string;
  name: string;
  paired: boolean;
  pair_code: string;
  available: boolean;
  shared: boolean;
  flexible: boolean;
}

const TRANSIENT_RETRY_DELAYS_MS = [500, 1_500];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The hub's API client. Every call goes through the contract: the request is checked by the
 * action's schema before it leaves (a typo fails here with the contract's message, not as a 400),
 * and the answer is parsed by the response schema.
 */
export class HubClient {
  readonly portal: string;
  private credentials: Credentials | undefined;
  private readonly store: CredentialsStore | undefined;
  private readonly fetch: typeof fetch;
  private readonly nowMs: () => number;
  private csrfToken: string | undefined;
  private refreshing: Promise<Credentials> | undefined;

  constructor(options: HubClientOptions) {
    this.portal = portalBase(options.portal);
    this.credentials = options.credentials;
    this.store = options.store;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.nowMs = options.nowMs ?? Date.now;
  }

  get session(): Credentials | undefined {
    return this.credentials;
  }

  private requireSession(): Credentials {
    if (!this.credentials) throw new HubError(NOT_SIGNED_IN, ErrorCodes.UNAUTHENTICATED.code);
    return this.credentials;
  }

  private nowS() {
    return Math.floor(this.nowMs() / 1000);
  }

  private async send(path: string, init: RequestInit): Promise<{ status: number; headers: Headers; json: unknown }> {
    const url = `${this.portal}${path}`;
    let res: Response;
    try {
      res = await this.fetch(url, { ...init, redirect: 'error' });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new PortalUnreachable(
        `Cannot reach the portal at ${this.portal} (${cause?.code ?? cause?.message ?? String(err)})`,
      );
    }
    const text = await res.text();
    try {
      return { status: res.status, headers: res.headers, json: JSON.parse(text) };
    } catch {
      throw new HubError(`Unexpected answer from ${url}: HTTP ${res.status}, not JSON`, undefined, res.status);
    }
  }

  /** The CSRF token every POST echoes (ADR 006); one per process is enough, they last 2 hours. */
  private async csrf(force = false): Promise<string> {
    if (this.csrfToken && !force) return this.csrfToken;
    const { headers, status } = await this.send(useraction.path, { method: 'GET' });
    const token = headers.get('x-csrf-token');
    if (!token) throw new HubError(`The portal answered no CSRF token (HTTP ${status})`, undefined, status);
    this.csrfToken = token;
    return token;
  }

  /** Calls one action of the contract. Throws HubError with the server's Description on failure. */
  async call<S extends ServiceDef, A extends keyof S['actions'] & string>(
    service: S,
    action: A,
    body: RequestOf<S, A>,
    options: CallOptions = {},
  ): Promise<ResponseOf<S, A>> {
    const def: ActionDef | undefined = service.actions[action];
    if (!def) throw new HubError(`${service.path} has no action ${action}`);
    const request = def.request.safeParse(body);
    if (!request.success) throw new HubError(describeIssues(request.error), ErrorCodes.VALIDATION.code);
    const payload = JSON.stringify({ action, ...(request.data as object) });

    let csrfRetried = false;
    let authRetried = false;
    let transientTries = 0;
    for (;;) {
      let answer: Awaited<ReturnType<HubClient['send']>>;
      try {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-csrf-token': await this.csrf(csrfRetried),
        };
        if (def.auth === 'bearer') headers.authorization = `Bearer ${await this.accessToken(authRetried)}`;
        answer = await this.send(service.path, { method: 'POST', headers, body: payload });
      } catch (err) {
        const delay = TRANSIENT_RETRY_DELAYS_MS[transientTries];
        if (options.retryTransient && err instanceof PortalUnreachable && delay !== undefined) {
          transientTries += 1;
          await sleep(delay);
          continue;
        }
        throw err;
      }

      const { status, json } = answer;
      const errorObject = errorObjectInput.safeParse((json as { error?: unknown } | null)?.error);
      if (!errorObject.success)
        throw new HubError(`Unexpected answer to ${action}: HTTP ${status} without an error object`, undefined, status);
      const { Success, Code, Description } = errorObject.data;
      if (!Success) {
        // A CSRF token can expire between calls of a long-lived process; one fresh token is enough.
        if (Code === ErrorCodes.CSRF.code && !csrfRetried) {
          csrfRetried = true;
          continue;
        }
        // The access token can die before its exp (server clock ahead, session rotated elsewhere):
        // one forced refresh, as the portal does (spec/000 §7).
        if (Code === ErrorCodes.UNAUTHENTICATED.code && def.auth === 'bearer' && !authRetried) {
          authRetried = true;
          continue;
        }
        const delay = TRANSIENT_RETRY_DELAYS_MS[transientTries];
        if (options.retryTransient && status >= 500 && delay !== undefined) {
          transientTries += 1;
          await sleep(delay);
          continue;
        }
        throw new HubError(Description || `${action} failed (HTTP ${status})`, Code, status);
      }
      const parsed = def.response.safeParse(json);
      if (!parsed.success)
        throw new HubError(
          `The portal's answer to ${action} does not match the contract: ${describeIssues(parsed.error)}`,
          undefined,
          status,
        );
      return parsed.data as ResponseOf<S, A>;
    }
  }

  /** A live access token: refreshed when within 30 s of its expiry, or when `force`d. */
  async accessToken(force = false): Promise<string> {
    const session = this.requireSession();
    if (!force && !accessTokenExpired(session.token_pair.access_token, this.nowS(), session.received_at))
      return session.token_pair.access_token;
    return (await this.refresh()).token_pair.access_token;
  }

  /** Trades the refresh token for a new pair and saves it. Concurrent callers share one refresh. */
  refresh(): Promise<Credentials> {
    this.refreshing ??= this.rotate().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async rotate(): Promise<Credentials> {
    const session = this.requireSession();
    const { refresh_token, access_token } = session.token_pair;
    if (refreshTokenExpired(refresh_token, this.nowS(), session.received_at))
      throw new HubError(SESSION_OVER, ErrorCodes.UNAUTHENTICATED.code);
    const res = await this.call(auth, 'refresh-access-token', { tokenPair: { refresh_token, access_token } }).catch(
      (err: unknown) => {
        throw sessionOver(err);
      },
    );
    if (!res.tokenPair) throw new HubError('The portal answered no token pair to refresh-access-token');
    return this.adopt({ ...session, token_pair: res.tokenPair, received_at: this.nowS() });
  }

  /** The old refresh token is dead once rotated, so the new pair is saved before anything else. */
  private async adopt(next: Credentials): Promise<Credentials> {
    this.credentials = next;
    await this.store?.save(next);
    return next;
  }

  /** Who is signed in, as the server sees it now (get-self rotates the refresh token; the new pair is saved). */
  async getSelf(): Promise<PublicUser> {
    const session = this.requireSession();
    const res = await this.call(useraction, 'get-self', {
      token_pair: { refresh_token: session.token_pair.refresh_token },
    }).catch((err: unknown) => {
      throw sessionOver(err);
    });
    if (!res.user || !res.token_pair) throw new HubError('The portal answered no user to get-self');
    const { user_id, email, name } = res.user;
    await this.adopt({
      ...session,
      user: { user_id, email, name },
      token_pair: res.token_pair,
      received_at: this.nowS(),
    });
    return res.user;
  }

  /** Revokes the session on the server. */
  async logout(): Promise<void> {
    const { token_pair, user } = this.requireSession();
    await this.call(useraction, 'logout', {
      token_pair: { access_token: token_pair.access_token, refresh_token: token_pair.refresh_token },
      user: { email: user.email },
    });
  }

  private email() {
    return this.requireSession().user.email;
  }

  async registerRobot(input: { make: string; model: string; name: string; hardware_hash?: string }): Promise<Robot> {
    const res = await this.call(robots, 'REGISTERSIM', {
      email: this.email(),
      make: input.make,
      model: input.model,
      name: input.name,
      hardware_hash: input.hardware_hash || simHardwareHash(input),
    });
    if (!res.robot) throw new HubError('The portal answered no robot to REGISTERSIM');
    return res.robot;
  }

  async pairRobot(input: { pair_code: string; robot_id: string }): Promise<RobotLicense> {
    const res = await this.call(license, 'PAIRROBOT', { email: this.email(), ...input });
    if (!res.robot_license) throw new HubError('The portal answered no license to PAIRROBOT');
    return res.robot_license;
  }

  async setAvailability(robot_id: string, available: boolean): Promise<Robot> {
    const res = await this.call(robots, 'UPDATEROBOT', { email: this.email(), robot_id, robot_state: { available } });
    if (!res.robot) throw new HubError('The portal answered no robot to UPDATEROBOT');
    return res.robot;
  }

  /**
   * The user's licenses with their robots, and the robots registered but not yet paired. Own
   * robots come from one GetRobots with an empty license list, which the server answers with every
   * robot the user registered; shared licenses are asked about by robot, as the Robot Manager does
   * (spec/001 §7).
   */
  async listRobots(): Promise<RobotRow[]> {
    const email = this.email();
    let own: RobotLicense[] = [];
    let shared: RobotLicense[] = [];
    try {
      const res = await this.call(license, 'GetLicenses', { email });
      own = res.user_licenses?.robot_licenses ?? [];
      shared = res.user_licenses?.shared_robot_licenses ?? [];
    } catch (err) {
      // Code 23 means "no licenses": an empty list, not a failure.
      if (!(err instanceof HubError && err.code === ErrorCodes.NO_LICENSES.code)) throw err;
    }
    const getRobots = async (refs: { robot_id: string; asset_id: string }[]) => {
      const res = await this.call(robots, 'GetRobots', { email, robot_licenses: refs });
      return new Map(res.robots.map((r) => [r.robot_id, r]));
    };
    const sharedBound = shared.filter((l) => l.robot_id);
    const [ownRobots, sharedRobots] = await Promise.all([
      getRobots([]),
      sharedBound.length
        ? getRobots(sharedBound.map((l) => ({ robot_id: l.robot_id, asset_id: l.asset_id })))
        : new Map<string, Robot>(),
    ]);

    const licenseRow = (l: RobotLicense, found: Map<string, Robot>, isShared: boolean): RobotRow => {
      const robot = l.robot_id ? found.get(l.robot_id) : undefined;
      return {
        license_id: l.robot_license.license_id,
        make: robot?.make || l.robot_make,
        model: robot?.model || l.robot_model,
        robot_id: l.robot_id,
        name: robot?.name ?? '',
        paired: l.paired_status || Boolean(l.robot_id),
        pair_code: l.pair_code,
        available: robot?.robot_state.available ?? false,
        shared: isShared,
        flexible: l.isFlexible,
      };
    };
    const bound = new Set(own.map((l) => l.robot_id).filter(Boolean));
    const unlicensed = [...ownRobots.values()]
      .filter((r) => !bound.has(r.robot_id))
      .map(
        (r): RobotRow => ({
          license_id: '',
          make: r.make,
          model: r.model,
          robot_id: r.robot_id,
          name: r.name,
          paired: false,
          pair_code: '',
          available: r.robot_state.available,
          shared: false,
          flexible: false,
        }),
      );
    return [
      ...own.map((l) => licenseRow(l, ownRobots, false)),
      ...unlicensed,
      ...shared.map((l) => licenseRow(l, sharedRobots, true)),
    ];
  }

  /**
   * Reports minutes of use. One idempotency key per dial, reused by every retry of it, so a retry
   * after a lost answer is never charged twice.
   */
  async dial(robot_id: string, minutes: number, idempotency_key: string = randomUUID()): Promise<UserTime> {
    const res = await this.call(
      time,
      'UPDATE_TIME',
      { email: this.email(), robot_id, minutes, idempotency_key },
      { retryTransient: true },
    );
    if (!res.user_time) throw new HubError('The portal answered no user time to UPDATE_TIME');
    return res.user_time;
  }

  async remainingTime(): Promise<UserTime> {
    const { user } = this.requireSession();
    const res = await this.call(time, 'CHECK_REMAINING_TIME', { email: user.email, user_id: user.user_id });
    if (!res.user_time) throw new HubError('The portal answered no user time to CHECK_REMAINING_TIME');
    return res.user_time;
  }
}

/** A 401 from a refresh-token call means the session is gone; say what to do about it. */
function sessionOver(err: unknown): unknown {
  if (err instanceof HubError && err.code === ErrorCodes.UNAUTHENTICATED.code)
    return new HubError(SESSION_OVER, err.code, err.status);
  return err;
}

/**
 * A simulated robot has no hardware to hash, so its identity is its make, model and name:
 * registering the same simulator again answers the same robot instead of a duplicate.
 */
export function simHardwareHash(input: { make: string; model: string; name: string }): string {
  const digest = createHash('sha256').update(`${input.make}\0${input.model}\0${input.name}`).digest('hex');
  return `sim-${digest.slice(0, 40)}`;
}
