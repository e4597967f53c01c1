import {
  displayModel,
  type LicenseUse,
  licenseUse,
  type Robot,
  type RobotLicense,
  type UserLicenses,
} from '@portal/contract';
import { robotImage } from '@/lib/robot-models';

/** A robot card's status line when it has no pairing code. */
export function robotStatusLabel(available: boolean | undefined): 'Active' | 'Inactive' {
  return available ? 'Active' : 'Inactive';
}

export type PairingFilter = 'all' | 'paired' | 'unpaired';

/** The Robot Manager's filter badges All, Paired, Unpaired. An entry with a pairing code is unpaired. */
export function matchesPairingFilter(item: { pair_code?: string | null }, filter: PairingFilter): boolean {
  if (filter === 'all') return true;
  const unpaired = Boolean(item.pair_code);
  return filter === 'unpaired' ? unpaired : !unpaired;
}

/** What one robot card of the Robot Manager shows: a license, with its robot when it is paired. */
export interface RobotCardModel {
  /** unique within a grid */
  key: string;
  licenseId: string;
  /** '' while unpaired */
  robotId: string;
  /** the model as stored (Tiago_Steel) */
  rawModel: string;
  /** the model as shown (Tiago) and its optional version badge (Steel) */
  model: string;
  version?: string;
  make: string;
  image: string;
  isFlexible: boolean;
  /** '' once paired */
  pairCode: string;
  name: string;
  status: 'Active' | 'Inactive';
  unpaired: boolean;
  shared: boolean;
  /** only the owner's cards with a robot open the manager page; shared ones never do */
  clickable: boolean;
  /** the robot's last report, epoch ms; 0 when it never reported or there is no robot */
  lastSeen: number;
  /** whether the owner's license counts as unused (issue 15); never for shared cards */
  use: LicenseUse;
}

/** The licenses GetRobots is asked about: those bound to a robot. */
export function licensesWithRobot(licenses: readonly RobotLicense[]): { robot_id: string; asset_id: string }[] {
  return licenses.filter((l) => l.robot_id !== '').map((l) => ({ robot_id: l.robot_id, asset_id: l.asset_id }));
}

/** One card per license; a paired license takes its robot's name, state and (when given) make and model. */
export function robotCards(
  licenses: readonly RobotLicense[],
  robots: readonly Robot[],
  options: { shared: boolean; nowMs?: number },
): RobotCardModel[] {
  const nowMs = options.nowMs ?? Date.now();
  const byId = new Map(robots.map((r) => [r.robot_id, r]));
  return licenses.map((license, index) => {
    const robot = license.robot_id ? byId.get(license.robot_id) : undefined;
    const rawModel = robot?.model || license.robot_model;
    const shown = displayModel(rawModel);
    const pairCode = license.pair_code || robot?.pair_code || '';
    return {
      key: `${license.robot_license.license_id || 'license'}:${license.robot_id || index}`,
      licenseId: license.robot_license.license_id,
      robotId: license.robot_id,
      rawModel,
      model: shown.model,
      ...(shown.version ? { version: shown.version } : {}),
      make: robot?.make || license.robot_make,
      image: robotImage(rawModel),
      isFlexible: license.isFlexible || Boolean(robot?.isFlexible),
      pairCode,
      name: robot?.name ?? '',
      status: robotStatusLabel(robot?.robot_state.available),
      unpaired: !matchesPairingFilter({ pair_code: pairCode }, 'paired'),
      shared: options.shared,
      clickable: !options.shared && license.robot_id !== '',
      lastSeen: robot?.last_seen ?? 0,
      use: options.shared ? { unused: false } : licenseUseOf(license, robot, nowMs),
    };
  });
}

/** The unused-license rule (contract domain/live-fleet.ts) for one of the owner's licenses. */
export function licenseUseOf(license: RobotLicense, robot: Robot | undefined, nowMs: number): LicenseUse {
  const paired = license.robot_id !== '' && !license.pair_code;
  return licenseUse({
    paired,
    lastSeenMs: robot?.last_seen,
    pairedAtMs: license.paired_at,
    unpairedSinceMs: license.unpaired_since,
    nowMs,
  });
}

export interface RobotManagerView {
  mine: RobotCardModel[];
  shared: RobotCardModel[];
  /** no robots and no shared robots at all, whatever the filter: the welcome card shows */
  empty: boolean;
}

/** The two grids under the pairing filter (All, Paired, Unpaired applies to both). */
export function robotManagerView(
  mine: readonly RobotCardModel[],
  shared: readonly RobotCardModel[],
  filter: PairingFilter,
): RobotManagerView {
  const keep = (card: RobotCardModel) => matchesPairingFilter({ pair_code: card.pairCode }, filter);
  return {
    mine: mine.filter(keep),
    shared: shared.filter(keep),
    empty: mine.length === 0 && shared.length === 0,
  };
}

export type ManagedRobot =
  | { kind: 'own'; license: RobotLicense; robot: Robot | undefined }
  | { kind: 'shared' }
  | { kind: 'missing' };

/** What the manager page of a robot id finds: one of the user's licenses, a shared robot, or nothing. */
export function findManagedRobot(
  licenses: Pick<UserLicenses, 'robot_licenses' | 'shared_robot_licenses'>,
  robots: readonly Robot[],
  robotId: string,
): ManagedRobot {
  if (!robotId) return { kind: 'missing' };
  const license = licenses.robot_licenses.find((l) => l.robot_id === robotId);
  if (license) return { kind: 'own', license, robot: robots.find((r) => r.robot_id === robotId) };
  if (licenses.shared_robot_licenses.some((l) => l.robot_id === robotId)) return { kind: 'shared' };
  return { kind: 'missing' };
}

/**
 * The images of the first `n` cards as the licenses alone name them (own, then shared; the robot's
 * own model, known only after GetRobots, is the same for a paired license), each once: the Robot
 * Manager fetches them while it asks GetRobots, instead of after (decision 044).
 */
export function firstCardImages(licenses: Pick<UserLicenses, 'robot_licenses' | 'shared_robot_licenses'>, n: number) {
  const first = [...licenses.robot_licenses, ...licenses.shared_robot_licenses].slice(0, n);
  return [...new Set(first.map((l) => robotImage(l.robot_model)))];
}
