import { ONE_DAY_MS } from '../constants.ts';
/**
 * Rules of the live fleet (issue 15, docs/decisions/031) that the server, the hub and the web app
 * share: when a license counts as unused, and the bounding box of robot positions (GetRobots'
 * geo_range, spec/001 §3).
 */

/** A license is unused after this many days without its robot reporting, or unpaired. */
export const UNUSED_AFTER_DAYS = 30;
const UNUSED_AFTER_MS = UNUSED_AFTER_DAYS * ONE_DAY_MS;

export interface LicenseUseInput {
  /** whether the license is paired with a robot now */
  paired: boolean;
  /** the robot's last report (UPDATEROBOT or UPDATE_TIME), epoch ms; 0 or undefined: never */
  lastSeenMs?: number | undefined;
  /** when the license was paired with its robot, epoch ms */
  pairedAtMs?: number | undefined;
  /** when the license was last left unpaired (granted, or unpaired), epoch ms */
  unpairedSinceMs?: number | undefined;
  nowMs: number;
}

export type LicenseUse =
  | { unused: false }
  | {
      unused: true;
      /**
       * - `silent`: paired, and its robot last reported at `sinceMs`
       * - `never-reported`: paired at `sinceMs`, and its robot has not reported since
       * - `unpaired`: unpaired since `sinceMs`
       */
      reason: 'silent' | 'never-reported' | 'unpaired';
      sinceMs: number;
    };

/**
 * A paired license whose robot has not reported for UNUSED_AFTER_DAYS, or an unpaired one left so
 * for as long, is unused: a license the customer may want to reassign. A paired robot that never
 * reported is counted from its pairing; without any date the license is not called unused.
 */
export function licenseUse(input: LicenseUseInput): LicenseUse {
  const old = (ms: number) => input.nowMs - ms >= UNUSED_AFTER_MS;
  if (!input.paired) {
    const since = input.unpairedSinceMs;
    return since && old(since) ? { unused: true, reason: 'unpaired', sinceMs: since } : { unused: false };
  }
  if (input.lastSeenMs)
    return old(input.lastSeenMs) ? { unused: true, reason: 'silent', sinceMs: input.lastSeenMs } : { unused: false };
  const paired = input.pairedAtMs;
  return paired && old(paired) ? { unused: true, reason: 'never-reported', sinceMs: paired } : { unused: false };
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface GeoBox {
  UpperLat: number;
  LowerLat: number;
  UpperLong: number;
  LowerLong: number;
}

/**
 * The empty range: no robot has reported a position. The spec gives geo_range no default; its
 * entities default to 0 (spec/001 §3), so every bound is 0.
 */
export const EMPTY_GEO_RANGE: GeoBox = { UpperLat: 0, LowerLat: 0, UpperLong: 0, LowerLong: 0 };

/**
 * The smallest latitude/longitude box holding every point (GetRobots builds the same in SQL). A box
 * across the antimeridian is not attempted: longitudes are compared as numbers.
 */
export function geoBoundingBox(points: readonly GeoPoint[]): GeoBox {
  if (points.length === 0) return { ...EMPTY_GEO_RANGE };
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  return {
    UpperLat: Math.max(...lats),
    LowerLat: Math.min(...lats),
    UpperLong: Math.max(...lons),
    LowerLong: Math.min(...lons),
  };
}

/**
 * A robot counts as available only while its hub keeps reporting it: a report (UPDATEROBOT or
 * UPDATE_TIME) within this long. Past it the robot shows Inactive whatever its last report said.
 */
export const ROBOT_REPORT_TIMEOUT_MS = 5 * 60_000;

export interface RobotAvailabilityInput {
  /** robot_state.available as the hub last reported it */
  reportedAvailable: boolean;
  /** the robot's last report, epoch ms; 0 or undefined: never */
  lastSeenMs?: number | undefined;
  nowMs: number;
}

/**
 * Whether a robot is Active (issue 32 item 5): its hub said so, and said it within
 * ROBOT_REPORT_TIMEOUT_MS. A robot that never reported, or went silent, is Inactive, so Active
 * always comes with a "Last seen" time.
 */
export function robotAvailable({ reportedAvailable, lastSeenMs, nowMs }: RobotAvailabilityInput): boolean {
  if (!reportedAvailable || !lastSeenMs) return false;
  return nowMs - lastSeenMs <= ROBOT_REPORT_TIMEOUT_MS;
}
