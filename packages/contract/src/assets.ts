import * as z from 'zod/mini';
import { epochMs, jwt } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * The asset service of spec/001 §7 (/api/assets): the hub application and its build artifacts.
 * A download needs the license agreement accepted; the answer is a signed, expiring link.
 */

const bodyToken = z.optional(jwt);

/**
 * The version of the license agreement the Downloads dialog shows. GetDownload records the user's
 * acceptance of it and refuses any other version; change it whenever the license text changes.
 */
export const LICENSE_AGREEMENT_VERSION = '2026-01';

/** What an asset is: the hub application (downloadable) or a robot driver (licensed per robot). */
export const AssetType = { Application: 'application', RobotDriver: 'robot_driver' } as const;

export const versionNumber = z.object({
  major: z.int().check(z.minimum(0)),
  minor: z.int().check(z.minimum(0)),
  patch: z.int().check(z.minimum(0)),
  revision: z.int().check(z.minimum(0)),
});
export type VersionNumber = z.infer<typeof versionNumber>;

export const versionInfo = z.object({
  sdk: versionNumber,
  client: versionNumber,
  core: versionNumber,
  messaging: versionNumber,
});
export type VersionInfo = z.infer<typeof versionInfo>;

/** The operating system an artifact is built for. */
export const ArtifactOS = z.enum(['windows', 'mac', 'linux']);
export type ArtifactOS = z.infer<typeof ArtifactOS>;

/**
 * The artifact's architecture: the CPU for Windows and macOS (amd64 = Intel, arm64 = Apple
 * silicon), the package format for Linux (deb or rpm).
 */
export const ArtifactArch = z.enum(['amd64', 'arm64', 'deb', 'rpm']);
export type ArtifactArch = z.infer<typeof ArtifactArch>;

export const artifact = z.object({
  /** the artifact's name in the store, relative; never a server file path */
  path: z.string(),
  asset_id: z.string(),
  OS: ArtifactOS,
  Arch: ArtifactArch,
  version_info: versionInfo,
  language: z._default(z.string(), ''),
  timestamp: epochMs,
  /** sha256 of the file, hex */
  checksum: z._default(z.string(), ''),
});
export type Artifact = z.infer<typeof artifact>;

export const asset = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  description: z._default(z.string(), ''),
  author: z._default(z.string(), ''),
  license: z._default(z.string(), ''),
  make: z._default(z.string(), ''),
  model: z._default(z.string(), ''),
  artifacts: z._default(z.array(artifact), []),
});
export type Asset = z.infer<typeof asset>;

export const assets = service('assets', '/api/assets', {
  GetAll: action({
    summary: 'Every downloadable asset (one with at least one artifact) with its artifacts, newest first.',
    auth: 'bearer',
    request: z.object({ token: bodyToken }),
    response: response({ assets: z._default(z.array(asset), []) }),
  }),
  GetDownload: action({
    summary:
      'A signed, expiring download link for the chosen artifact (the first of `assets.artifacts`), once the license agreement is accepted. The server finds the artifact in its own catalogue.',
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      asset_id: z.string().check(z.minLength(1), z.maxLength(255)),
      /** the one asset, with the chosen artifact first */
      assets: z.extend(asset, {
        artifacts: z.array(artifact).check(z.minLength(1, { error: 'Invalid asset for download' })),
      }),
      /** the asset type, as GetAll answered it */
      type: z.optional(z.string().check(z.maxLength(100))),
      /** The spec sends it (empty); the server ignores it. */
      download_link: z.optional(z.string().check(z.maxLength(2048))),
      /** the version of the license agreement the user ticked: LICENSE_AGREEMENT_VERSION */
      agreement_version: z.string().check(z.trim(), z.minLength(1), z.maxLength(50)),
      accepted: z.literal(true, { error: 'The license agreement must be accepted' }),
    }),
    response: response({ download_link: z.string() }),
  }),
});
