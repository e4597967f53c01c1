import { createHash, randomUUID } from 'node:crypto';
import { type Client, ClientError, createClient, refreshingTokens, type TokenStore } from '@portal/client';
import {
  license,
  loadEnglishMessages,
  type PublicUser,
  type Robot,
  type RobotLicense,
  type RobotLocation,
  robots,
  time,
  type UserTime,
  useraction,
} from '@portal/contract';
import type { Credentials, CredentialsStore } from './hub-credentials.ts';
import { portalBase } from './hub-login.ts';

export interface HubClientOptions {
  portal: string;
  credentials: Credentials;
  /** Where rotated token pairs are saved; without it they live only in this process. */
  store?: CredentialsStore;
  fetch?: typeof fetch;
  nowMs?: () => number;
  /** Wait between retries of a dial (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
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

/** An answer the contract allows but the hub cannot use (the field it asked for is missing). */
function missingField(action: string, field: string): ClientError {
  return new ClientError({
    kind: 'invalid_response',
    status: 200,
    description: `The portal answered no ${field} to ${action}`,
    call: action,
  });
}

/**
 * The hub's domain calls over the one action client (`@portal/client`). The client owns the
 * protocol; this class owns the hub's session: its credentials, kept in the credentials file, and
 * rotated pairs saved there before anything else uses them (the old refresh token is dead once
 * rotated). A long-lived process keeps one CSRF token until the portal refuses it, and every
 * request is checked against the contract before it leaves.
 */
export class HubClient {
  readonly portal: string;
  private credentials: Credentials;
  private readonly store: CredentialsStore | undefined;
  private readonly nowMs: () => number;
  private readonly client: Client;

  constructor(options: HubClientOptions) {
    this.portal = portalBase(options.portal);
    this.credentials = options.credentials;
    this.store = options.store;
    this.nowMs = options.nowMs ?? Date.now;
    const session: TokenStore = {
      read: () => ({
        access_token: this.credentials.token_pair.access_token,
        refresh_token: this.credentials.token_pair.refresh_token,
        received_at: this.credentials.received_at,
      }),
      write: async (token_pair) => {
        await this.adopt({ ...this.credentials, token_pair });
      },
      // The file stays: `whoami` and `logout` still need to say whose session ended.
      end: () => {},
    };
    // validateRequests shows zod's messages to the person at the terminal (docs/decisions/036).
    loadEnglishMessages();
    // The refresh call goes through this same client (refresh-access-token needs no access
    // token), so the process keeps one CSRF token.
    const client: Client = createClient({
      baseUrl: this.portal,
      fetch: options.fetch,
      origin: new URL(this.portal).origin,
      reuseCsrf: true,
      validateRequests: true,
      sleep: options.sleep,
      tokens: { access: () => tokens.access(), refresh: (rejected) => tokens.refresh(rejected) },
    });
    const tokens = refreshingTokens({ client, store: session, nowMs: this.nowMs });
    this.client = client;
  }

  get session(): Credentials {
    return this.credentials;
  }

  /** A rotated pair is saved before anything else uses it: losing it would end the session. */
  private async adopt(next: Omit<Credentials, 'received_at'>): Promise<void> {
    this.credentials = { ...next, received_at: Math.floor(this.nowMs() / 1000) };
    await this.store?.save(this.credentials);
  }

  private email() {
    return this.credentials.user.email;
  }

  /** Who is signed in, as the server sees it now (get-self rotates the refresh token; the new pair is saved). */
  async getSelf(): Promise<PublicUser> {
    const { token_pair } = this.credentials;
    const res = await this.client.call(useraction, 'get-self', {
      token_pair: { refresh_token: token_pair.refresh_token },
    });
    const { user_id, email, name } = res.user;
    await this.adopt({ ...this.credentials, user: { user_id, email, name }, token_pair: res.token_pair });
    return res.user;
  }

  /** Revokes the session on the server. */
  async logout(): Promise<void> {
    const { token_pair, user } = this.credentials;
    await this.client.call(useraction, 'logout', {
      token_pair: { access_token: token_pair.access_token, refresh_token: token_pair.refresh_token },
      user: { email: user.email },
    });
  }

  async registerRobot(input: { make: string; model: string; name: string; hardware_hash?: string }): Promise<Robot> {
    const res = await this.client.call(robots, 'REGISTERSIM', {
      email: this.email(),
      make: input.make,
      model: input.model,
      name: input.name,
      hardware_hash: input.hardware_hash || simHardwareHash(input),
    });
    if (!res.robot) throw missingField('REGISTERSIM', 'robot');
    return res.robot;
  }

  async pairRobot(input: { pair_code: string; robot_id: string }): Promise<RobotLicense> {
    const res = await this.client.call(license, 'PAIRROBOT', { email: this.email(), ...input });
    if (!res.robot_license) throw missingField('PAIRROBOT', 'license');
    return res.robot_license;
  }

  /** UPDATEROBOT: the robot's availability, and where it is when known (the portal checks the ranges). */
  async setAvailability(robot_id: string, available: boolean, location?: RobotLocation): Promise<Robot> {
    const res = await this.client.call(robots, 'UPDATEROBOT', {
      email: this.email(),
      robot_id,
      robot_state: { available, ...(location ? { location } : {}) },
    });
    if (!res.robot) throw missingField('UPDATEROBOT', 'robot');
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
      const res = await this.client.call(license, 'GetLicences', { email });
      own = res.user_licenses?.robot_licenses ?? [];
      shared = res.user_licenses?.shared_robot_licenses ?? [];
    } catch (err) {
      // Code 23 means "no licenses": an empty list, not a failure.
      if (!(err instanceof ClientError && err.kind === 'empty')) throw err;
    }
    const getRobots = async (refs: { robot_id: string; asset_id: string }[]) => {
      const res = await this.client.call(robots, 'GetRobots', { email, robot_licenses: refs });
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
    const res = await this.client.call(
      time,
      'UPDATE_TIME',
      { email: this.email(), robot_id, minutes, idempotency_key },
      { retryTransient: true },
    );
    if (!res.user_time) throw missingField('UPDATE_TIME', 'user time');
    return res.user_time;
  }

  async remainingTime(): Promise<UserTime> {
    const { user } = this.credentials;
    const res = await this.client.call(time, 'CHECK_REMAINING_TIME', { email: user.email, user_id: user.user_id });
    if (!res.user_time) throw missingField('CHECK_REMAINING_TIME', 'user time');
    return res.user_time;
  }
}

/**
 * A simulated robot has no hardware to hash, so its identity is its make, model and name:
 * registering the same simulator again answers the same robot instead of a duplicate.
 */
export function simHardwareHash(input: { make: string; model: string; name: string }): string {
  const digest = createHash('sha256').update(`${input.make}\0${input.model}\0${input.name}`).digest('hex');
  return `sim-${digest.slice(0, 40)}`;
}
