import * as z from 'zod/mini';
import { ArtifactArch, ArtifactOS } from './assets.ts';
import { epochMs, jwt } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * Releases of the hub (issue 35 item 6, docs/decisions/076): what customers are offered per
 * platform, and withdrawing a build (Downloads then offers the next highest) or restoring it. Auth
 * `staff` as the rest of the back office (decision 071); the list needs `customers.read` (support
 * tells customers what they are offered), changes `releases.manage` (admin). Uploading a build is
 * not an action: it streams on a route of its own, `POST RELEASE_UPLOAD_PATH` (docs/operations.md).
 */

/** Where a build is uploaded: the bytes as the body (application/octet-stream), the rest in the query. */
export const RELEASE_UPLOAD_PATH = '/api/admin/releases/upload';

/**
 * The platforms the Downloads page offers, as artifacts name them: a build for any other os/arch
 * pair would never be offered, so it cannot be uploaded.
 */
export const RELEASE_PLATFORMS = [
  { os: 'windows', arch: 'amd64' },
  { os: 'mac', arch: 'arm64' },
  { os: 'mac', arch: 'amd64' },
  { os: 'linux', arch: 'deb' },
  { os: 'linux', arch: 'rpm' },
] as const satisfies readonly { os: ArtifactOS; arch: ArtifactArch }[];

/** Whether the Downloads page offers builds for this os and arch. */
export function isReleasePlatform(os: string, arch: string): boolean {
  return RELEASE_PLATFORMS.some((p) => p.os === os && p.arch === arch);
}

/** A release's version as it is uploaded: major.minor.patch.revision, each 0 to 999999. */
export const RELEASE_VERSION = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
/** A build's file name: the name the browser saves it as, and part of its key in the store. */
export const RELEASE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const token = z.optional(jwt);
const reason = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Reason is required' }),
    z.maxLength(500, { error: 'Reason must be at most 500 characters' }),
  );

/** One uploaded build of the hub. Instants are epoch ms. */
export const releaseView = z.object({
  artifact_id: z.string(),
  asset_id: z.string(),
  os: ArtifactOS,
  arch: ArtifactArch,
  /** major.minor.patch.revision */
  version: z.string(),
  file_name: z.string(),
  size_bytes: z.int(),
  /** sha256 of the bytes, hex */
  checksum: z.string(),
  uploaded_at: epochMs,
  /** customers are offered this build for its platform now */
  offered: z.boolean(),
  /** epoch ms, 0 while it is not withdrawn */
  withdrawn_at: z._default(epochMs, 0),
  withdrawn_reason: z._default(z.string(), ''),
});
export type ReleaseView = z.infer<typeof releaseView>;

/** A platform with every build, newest version first, and the one offered. */
export const releasePlatform = z.object({
  os: ArtifactOS,
  arch: ArtifactArch,
  /** the build customers are offered, '' when none is */
  offered_artifact_id: z.string(),
  builds: z.array(releaseView),
});
export type ReleasePlatform = z.infer<typeof releasePlatform>;

const artifactId = z.uuid({ error: 'Artifact id must be a UUID' });

export const adminReleases = service('adminReleases', '/api/admin/releases', {
  ListReleases: action({
    summary:
      'Every build of the hub per platform (each platform the Downloads page offers), newest version first, with the one customers are offered now and the withdrawn ones marked.',
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({ token }),
    response: response({ platforms: z.array(releasePlatform) }),
  }),
  WithdrawRelease: action({
    summary:
      'Withdraw a build: Downloads stops offering it (the next highest version of its platform is offered) and its download links stop working. One audit entry. Admins only.',
    auth: 'staff',
    permission: 'releases.manage',
    request: z.object({ token, artifact_id: artifactId, reason }),
    response: response({ platform: releasePlatform }),
  }),
  RestoreRelease: action({
    summary:
      'Undo a withdrawal: the build is offered again when it is the highest of its platform. One audit entry. Admins only.',
    auth: 'staff',
    permission: 'releases.manage',
    request: z.object({ token, artifact_id: artifactId, reason }),
    response: response({ platform: releasePlatform }),
  }),
});
