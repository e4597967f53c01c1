import * as z from 'zod/mini';
import { epochMs, jwt, normalisedEmail } from './common.ts';
import { ONE_DAY_S } from './constants.ts';
import { action, alias, response, service } from './define.ts';

/**
 * The license service of spec/001 §7 (/api/license) and docs/architecture.md#robots-licenses-and-dial-time. A robot license is the right to
 * drive one physical robot of a model for a period. It starts unpaired with a short pairing code;
 * the hub redeems the code (PAIRROBOT), which binds `robot_id` and clears the code.
 * Field names are the spec's, including its spelling `comission_region`. Dates are epoch ms,
 * durations seconds.
 */

const bodyToken = z.optional(jwt);
const licenseId = z.string().check(z.minLength(1), z.maxLength(255));
const robotId = z.string().check(z.minLength(1), z.maxLength(255));

/** Pairing codes: PAIR_CODE_LENGTH characters of an alphabet without look-alikes (no 0/O, 1/I/L). */
export const PAIR_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIR_CODE_LENGTH = 8;
/** What a typed code may look like: case and surrounding spaces are forgiven. */
export const pairCode = z
  .string()
  .check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9]{6,16}$/, { error: 'Invalid pairing code' }));

/** The term of a granted driver license when BUYASSET names none: one year, in seconds. */
export const DEFAULT_LICENSE_DURATION_S = 365 * ONE_DAY_S;

/** Longest share a license owner can grant; the server also stops a share at the license's end. */
export const MAX_SHARE_DURATION_S = 366 * ONE_DAY_S;

export const resellerInfo = z.object({
  commission_name: z._default(z.string(), ''),
  comission_region: z._default(z.string(), ''),
  reseller_name: z._default(z.string(), ''),
  reseller_region: z._default(z.string(), ''),
  issue_date: z._default(epochMs, 0),
  assigned_to: z._default(z.string(), ''),
});
export type ResellerInfo = z.infer<typeof resellerInfo>;

export const licenseTerms = z.object({
  license_id: z.string(),
  start_date: epochMs,
  /** seconds */
  duration: z.int().check(z.minimum(0)),
  end_date: epochMs,
  reseller_info: z.optional(resellerInfo),
});
export type License = z.infer<typeof licenseTerms>;

export const assetLicense = z.object({ asset_id: z.string(), asset_license: licenseTerms });
export type AssetLicense = z.infer<typeof assetLicense>;

export const robotLicense = z.object({
  /** '' until paired */
  robot_id: z._default(z.string(), ''),
  asset_id: z._default(z.string(), ''),
  robot_license: licenseTerms,
  robot_make: z._default(z.string(), ''),
  robot_model: z._default(z.string(), ''),
  /** '' once paired */
  pair_code: z._default(z.string(), ''),
  paired_status: z._default(z.boolean(), false),
  isFlexible: z._default(z.boolean(), false),
  /** beyond the spec (GetLicences, to its owner): when it was paired, epoch ms; with a robot only */
  paired_at: z.optional(epochMs),
  /** beyond the spec (GetLicences, to its owner): since when it is unpaired (granted or unpaired), epoch ms */
  unpaired_since: z.optional(epochMs),
});
export type RobotLicense = z.infer<typeof robotLicense>;

export const userLicenses = z.object({
  email: z.string(),
  asset_licenses: z._default(z.array(assetLicense), []),
  robot_licenses: z._default(z.array(robotLicense), []),
  /** licenses other users shared with this one; read-only */
  shared_robot_licenses: z._default(z.array(robotLicense), []),
});
export type UserLicenses = z.infer<typeof userLicenses>;

/** Share entry: who a license is shared with, for how long (seconds). */
export const shareEntry = z.object({
  recipient_email: normalisedEmail,
  duration: z
    .number()
    .check(
      z.int({ error: 'Duration must be a whole number of seconds' }),
      z.minimum(1, { error: 'Duration must be at least 1 second' }),
      z.maximum(MAX_SHARE_DURATION_S, { error: 'Duration must be at most 366 days' }),
    ),
});
export type ShareEntry = z.infer<typeof shareEntry>;

/** Shared-robot entry: a license the owner shares and with whom. */
export const sharedRobotEntry = z.object({ sharee_email: z.string(), license: robotLicense });
export type SharedRobotEntry = z.infer<typeof sharedRobotEntry>;

export const sharingResponse = response({
  owner_email: z.string(),
  sharees_robots: z._default(z.array(sharedRobotEntry), []),
});

/** The spec's GetLicences (spec/001 §7): its wire name is the spec's spelling (docs/decisions/062). */
const getLicences = action({
  summary: "The signed-in user's asset, robot and shared-robot licenses. Code 23 (no licenses) answers empty lists.",
  auth: 'bearer',
  request: z.object({ token: bodyToken, email: normalisedEmail }),
  response: response({ user_licenses: userLicenses }),
});

export const license = service('license', '/api/license', {
  GetLicences: getLicences,
  /** The name decision 015 gave it, still answered for the callers built then (decision 062). */
  GetLicenses: alias('GetLicences', getLicences),
  BUYASSET: action({
    summary:
      'Grant an asset license to the account of `email`; a robot-driver asset also grants an unpaired robot license with a pairing code. Operators only (x-operator-token): portal users buy through checkout, and a portal token is refused.',
    auth: 'operator',
    permission: 'licenses.grant',
    caller: 'operator',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      asset_id: z.string().check(z.minLength(1), z.maxLength(255)),
      /** seconds; the asset's default term when absent */
      duration: z.optional(z.int().check(z.minimum(1))),
    }),
    response: response({ asset_license: assetLicense }),
  }),
  SHARELICENSE: action({
    summary:
      "Share a paired robot license of the signed-in user with an email address for a duration (seconds), capped at the license's end; the address is mailed. An address without a verified account gets an invitation and the share applies once it signs up with that address: the answer is the same either way (docs/decisions/023). Refused (400, recipient_email): the caller's own address, an address the license is already shared with. Invitations are capped per owner and per address (429).",
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, license_id: licenseId, ...shareEntry.shape }),
    response: sharingResponse,
  }),
  STOPSHAREDLICENSE: action({
    summary:
      'Stop sharing a license: with one address, or with everyone when recipient_email is absent. Every address that is not a live share of this license gets the same 404 naming recipient_email.',
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      license_id: licenseId,
      recipient_email: z.optional(normalisedEmail),
    }),
    response: sharingResponse,
  }),
  GETSHAREDLICENSES: action({
    summary:
      'The live shares of the signed-in user, and with which address; an invitation still waiting for its address to sign up is listed like any other share.',
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail }),
    response: sharingResponse,
  }),
  PAIRROBOT: action({
    summary:
      "The robot's hub redeems a pairing code: the license binds robot_id and its code is cleared. The robot must be registered to the same user.",
    auth: 'bearer',
    caller: 'hub',
    request: z.object({ token: bodyToken, email: normalisedEmail, pair_code: pairCode, robot_id: robotId }),
    response: response({ robot_license: robotLicense }),
  }),
  REGENERATEPAIRCODE: action({
    summary: 'Replace the pairing code of an unpaired license of the signed-in user (the old code stops working).',
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, license_id: licenseId }),
    response: response({ robot_license: robotLicense }),
  }),
  UNPAIR: action({
    summary: 'Release the robot bound to a license of the signed-in user; the license gets a new pairing code.',
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, license_id: licenseId }),
    response: response({ robot_license: robotLicense }),
  }),
});
