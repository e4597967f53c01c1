import {
  displayModel,
  matchesPairingFilter,
  type PairingFilter,
  type Robot,
  type RobotLicence,
  robotImage,
  robotStatusLabel,
  type UserLicences,
} from '@portal/contract';

/** What one robot card of the Robot Manager shows: a licence, with its robot when it is paired. */
export interface RobotCardModel {
  /** unique within a grid */
  key: string;
  licenceId: string;
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
}

/** The licences GetRobots is asked about: those bound to a robot. */
export function licencesWithRobot(licences: readonly RobotLicence[]): { robot_id: string; asset_id: string }[] {
  return licences.filter((l) => l.robot_id !== '').map((l) => ({ robot_id: l.robot_id, asset_id: l.asset_id }));
}

/** One card per licence; a paired licence takes its robot's name, state and (when given) make and model. */
export function robotCards(
  licences: readonly RobotLicence[],
  robots: readonly Robot[],
  options: { shared: boolean },
): RobotCardModel[] {
  const byId = new Map(robots.map((r) => [r.robot_id, r]));
  return licences.map((licence, index) => {
    const robot = licence.robot_id ? byId.get(licence.robot_id) : undefined;
    const rawModel = robot?.model || licence.robot_model;
    const shown = displayModel(rawModel);
    const pairCode = licence.pair_code || robot?.pair_code || '';
    return {
      key: `${licence.robot_license.license_id || 'licence'}:${licence.robot_id || index}`,
      licenceId: licence.robot_license.license_id,
      robotId: licence.robot_id,
      rawModel,
      model: shown.model,
      ...(shown.version ? { version: shown.version } : {}),
      make: robot?.make || licence.robot_make,
      image: robotImage(rawModel),
      isFlexible: licence.isFlexible || Boolean(robot?.isFlexible),
      pairCode,
      name: robot?.name ?? '',
      status: robotStatusLabel(robot?.robot_state.available),
      unpaired: !matchesPairingFilter({ pair_code: pairCode }, 'paired'),
      shared: options.shared,
      clickable: !options.shared && licence.robot_id !== '',
    };
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
  | { kind: 'own'; licence: RobotLicence; robot: Robot | undefined }
  | { kind: 'shared' }
  | { kind: 'missing' };

/** What the manager page of a robot id finds: one of the user's licences, a shared robot, or nothing. */
export function findManagedRobot(
  licences: Pick<UserLicences, 'robot_licenses' | 'shared_robot_licenses'>,
  robots: readonly Robot[],
  robotId: string,
): ManagedRobot {
  if (!robotId) return { kind: 'missing' };
  const licence = licences.robot_licenses.find((l) => l.robot_id === robotId);
  if (licence) return { kind: 'own', licence, robot: robots.find((r) => r.robot_id === robotId) };
  if (licences.shared_robot_licenses.some((l) => l.robot_id === robotId)) return { kind: 'shared' };
  return { kind: 'missing' };
}
