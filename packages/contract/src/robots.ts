import { z } from 'zod';
import { epochMs, jwt, normalisedEmail } from './common.ts';
import { action, response, service } from './define.ts';
import { EMPTY_GEO_RANGE } from './domain/live-fleet.ts';
import { robotLicense } from './license.ts';
import { boundedJsonObject, MAX_ROBOT_CONFIG_BYTES } from './safe-input.ts';

/**
 * The robot service of spec/001 §7 (/api/robots) and docs/architecture.md#robots-licenses-and-dial-time. The hub registers robots and
 * reports their availability; the portal reads them for the licenses the user holds or was shared.
 */

const bodyToken = jwt.optional();
const robotId = z.string().min(1).max(255);
const label = z.string().trim().min(1).max(100);

/** Upper bound of licenses one GetRobots asks about; a sanity limit, not a rule of the spec. */
export const MAX_ROBOTS_PER_QUERY = 1_000;
export const MAX_MODALITIES = 64;

/**
 * A position a robot reports (UPDATEROBOT's robot_state.location, issue 15): degrees, WGS 84. Only
 * the robot's owner sees it; GetRobots' geo_range is the box around the owner's robots that have one.
 */
export const robotLocation = z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
});
export type RobotLocation = z.infer<typeof robotLocation>;

export const robot = z.object({
  robot_id: z.string(),
  make: z.string(),
  model: z.string(),
  name: z.string().default(''),
  hardware_hash: z.string().default(''),
  license: z.object({ license_id: z.string().default('') }).default({ license_id: '' }),
  join_date: epochMs,
  /** free-form configuration the hub reports; `modalities` lives here */
  robot_config: z.record(z.string(), z.unknown()).default({}),
  robot_state: z
    .object({
      available: z.boolean().default(false),
      /** beyond the spec: the last reported position, to the robot's owner only */
      location: robotLocation.optional(),
    })
    .default({ available: false }),
  pair_code: z.string().default(''),
  isFlexible: z.boolean().default(false),
  /** beyond the spec: the robot's last report (UPDATEROBOT or UPDATE_TIME), epoch ms; 0: never */
  last_seen: epochMs.default(0),
});
export type Robot = z.infer<typeof robot>;

export const geoRange = z.object({
  UpperLat: z.number().min(-90).max(90),
  LowerLat: z.number().min(-90).max(90),
  UpperLong: z.number().min(-180).max(180),
  LowerLong: z.number().min(-180).max(180),
});
export type GeoRange = z.infer<typeof geoRange>;

/** A license GetRobots asks about. Whole robot licenses are accepted; only these fields are read. */
const robotLicenseRef = z.object({ robot_id: z.string().max(255), asset_id: z.string().max(255).optional() });

export const robotsResponse = response({
  robots: z.array(robot).default([]),
  robot_licenses: z.array(robotLicense).default([]),
  /**
   * The box around the reported positions of the caller's own robots in the answer; every bound 0
   * when none has reported one (EMPTY_GEO_RANGE).
   */
  geo_range: geoRange.default({ ...EMPTY_GEO_RANGE }),
});

export const robots = service('robots', '/api/robots', {
  GetRobots: action({
    summary:
      'Robots bound to the given licenses. The server answers only robots the signed-in user registered or that are bound to a license shared with them; others are left out. An empty list answers every robot the user registered.',
    auth: 'bearer',
    request: z.object({
      user_token: bodyToken,
      email: normalisedEmail,
      robot_licenses: z.array(robotLicenseRef).max(MAX_ROBOTS_PER_QUERY),
    }),
    response: robotsResponse,
  }),
  REGISTERSIM: action({
    summary:
      'The hub registers a robot for the signed-in user. The same hardware_hash for the same user answers the existing robot.',
    auth: 'bearer',
    caller: 'hub',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      make: label,
      model: label,
      name: label,
      hardware_hash: z.string().trim().min(1).max(256),
    }),
    response: response({ robot }),
  }),
  UPDATEROBOT: action({
    summary:
      "The hub updates one of the user's robots: its name, availability, position or configuration. Every call counts as the robot's report (last_seen).",
    auth: 'bearer',
    caller: 'hub',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      robot_id: robotId,
      name: label.optional(),
      robot_state: z.object({ available: z.boolean(), location: robotLocation.optional() }).optional(),
      /** merged into the stored configuration; the result may be at most MAX_ROBOT_CONFIG_BYTES */
      robot_config: boundedJsonObject(MAX_ROBOT_CONFIG_BYTES).optional(),
    }),
    response: response({ robot }),
  }),
  UNREGISTER: action({
    summary: "The hub removes one of the user's robots; a license bound to it becomes unpaired with a new code.",
    auth: 'bearer',
    caller: 'hub',
    request: z.object({ token: bodyToken, email: normalisedEmail, robot_id: robotId }),
    response: response({}),
  }),
  UPDATEMODALITIES: action({
    summary: 'The hub reports what a robot can do (camera, audio, motion...); stored as robot_config.modalities.',
    auth: 'bearer',
    caller: 'hub',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      robot_id: robotId,
      modalities: z.array(z.string().trim().min(1).max(64)).max(MAX_MODALITIES),
    }),
    response: response({ robot }),
  }),
});
