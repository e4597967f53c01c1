import * as z from 'zod/mini';
import { epochMs, jwt, normalisedEmail } from './common.ts';
import { action, response, service } from './define.ts';
import { EMPTY_GEO_RANGE } from './domain/live-fleet.ts';
import { robotLicense } from './license.ts';
import { boundedJsonObject, MAX_ROBOT_CONFIG_BYTES } from './safe-input.ts';

/**
 * The robot service of spec/001 §7 (/api/robots) and docs/architecture.md#robots-licenses-and-dial-time. The hub registers robots and
 * reports their availability; the portal reads them for the licenses the user holds or was shared.
 */

const bodyToken = z.optional(jwt);
const robotId = z.string().check(z.minLength(1), z.maxLength(255));
const label = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));

/** Upper bound of licenses one GetRobots asks about; a sanity limit, not a rule of the spec. */
export const MAX_ROBOTS_PER_QUERY = 1_000;
export const MAX_MODALITIES = 64;

/**
 * A position a robot reports (UPDATEROBOT's robot_state.location, issue 15): degrees, WGS 84. Only
 * the robot's owner sees it; GetRobots' geo_range is the box around the owner's robots that have one.
 */
export const robotLocation = z.object({
  lat: z.number().check(z.minimum(-90), z.maximum(90)),
  lon: z.number().check(z.minimum(-180), z.maximum(180)),
});
export type RobotLocation = z.infer<typeof robotLocation>;

export const robot = z.object({
  robot_id: z.string(),
  make: z.string(),
  model: z.string(),
  name: z._default(z.string(), ''),
  hardware_hash: z._default(z.string(), ''),
  license: z._default(z.object({ license_id: z._default(z.string(), '') }), { license_id: '' }),
  join_date: epochMs,
  /** free-form configuration the hub reports; `modalities` lives here */
  robot_config: z._default(z.record(z.string(), z.unknown()), {}),
  robot_state: z._default(
    z.object({
      available: z._default(z.boolean(), false),
      /** beyond the spec: the last reported position, to the robot's owner only */
      location: z.optional(robotLocation),
    }),
    { available: false },
  ),
  pair_code: z._default(z.string(), ''),
  isFlexible: z._default(z.boolean(), false),
  /** beyond the spec: the robot's last report (UPDATEROBOT or UPDATE_TIME), epoch ms; 0: never */
  last_seen: z._default(epochMs, 0),
});
export type Robot = z.infer<typeof robot>;

export const geoRange = z.object({
  UpperLat: z.number().check(z.minimum(-90), z.maximum(90)),
  LowerLat: z.number().check(z.minimum(-90), z.maximum(90)),
  UpperLong: z.number().check(z.minimum(-180), z.maximum(180)),
  LowerLong: z.number().check(z.minimum(-180), z.maximum(180)),
});
export type GeoRange = z.infer<typeof geoRange>;

/** A license GetRobots asks about. Whole robot licenses are accepted; only these fields are read. */
const robotLicenseRef = z.object({
  robot_id: z.string().check(z.maxLength(255)),
  asset_id: z.optional(z.string().check(z.maxLength(255))),
});

export const robotsResponse = response({
  robots: z._default(z.array(robot), []),
  robot_licenses: z._default(z.array(robotLicense), []),
  /**
   * The box around the reported positions of the caller's own robots in the answer; every bound 0
   * when none has reported one (EMPTY_GEO_RANGE).
   */
  geo_range: z._default(geoRange, { ...EMPTY_GEO_RANGE }),
});

export const robots = service('robots', '/api/robots', {
  GetRobots: action({
    summary:
      'Robots bound to the given licenses. The server answers only robots the signed-in user registered or that are bound to a license shared with them; others are left out. An empty list answers every robot the user registered.',
    auth: 'bearer',
    request: z.object({
      user_token: bodyToken,
      email: normalisedEmail,
      robot_licenses: z.array(robotLicenseRef).check(z.maxLength(MAX_ROBOTS_PER_QUERY)),
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
      hardware_hash: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
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
      name: z.optional(label),
      robot_state: z.optional(z.object({ available: z.boolean(), location: z.optional(robotLocation) })),
      /** merged into the stored configuration; the result may be at most MAX_ROBOT_CONFIG_BYTES */
      robot_config: z.optional(boundedJsonObject(MAX_ROBOT_CONFIG_BYTES)),
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
      modalities: z
        .array(z.string().check(z.trim(), z.minLength(1), z.maxLength(64)))
        .check(z.maxLength(MAX_MODALITIES)),
    }),
    response: response({ robot }),
  }),
});
