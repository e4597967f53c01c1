import { z } from 'zod';
import { epochMs, jwt } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * The asset service of spec/001 §7 (/api/assets): the hub application and its build artifacts.
 * A download needs the license agreement accepted; the answer is a signed, expiring link.
 */

const bodyToken = jwt.optional();

/**
 * The version of the license agreement the Downloads dialog shows. GetDownload records the user's
 * acceptance of it and refuses any other version; change it whenever the license text changes.
 */
export const LICENSE_AGREEMENT_VERSION = '2026-01';

/** What an asset is: the hub application (downloadable) or a robot driver (licensed per robot). */
export const AssetType = { Application: 'application', RobotDriver: 'robot_driver' } as const;

export const versionNumber = z.object({
  major: z.number().int().min(0),
  minor: z.number().int().min(0),
  patch: z.number().int().min(0),
  revision: z.number().int().min(0),
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
  language: z.string().default(''),
  timestamp: epochMs,
  /** sha256 of the file, hex */
  checksum: z.string().default(''),
});
export type Artifact = z.infer<typeof artifact>;

export const asset = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  description: z.string().default(''),
  author: z.string().default(''),
  license: z.string().default(''),
  make: z.string().default(''),
  model: z.string().default(''),
  artifacts: z.array(artifact).default([]),
});
export type Asset = z.infer<typeof asset>;

export const assets = service('assets', '/api/assets', {
  GetAll: action({
    summary: 'Every downloadable asset (one with at least one artifact) with its artifacts, newest first.',
    auth: 'bearer',
    request: z.object({ token: bodyToken }),
    response: response({ assets: z.array(asset).default([]) }),
  }),
  GetDownload: action({
    summary:
      'A signed, expiring download link for the chosen artifact (the first of `assets.artifacts`), once the license agreement is accepted. The server finds the artifact in its own catalogue.',
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      asset_id: z.string().min(1).max(255),
      /** the one asset, with the chosen artifact first */
      assets: asset.extend({ artifacts: z.array(artifact).min(1, { error: 'Invalid asset for download' }) }),
      /** the asset type, as GetAll answered it */
      type: z.string().max(100).optional(),
      /** The spec sends it (empty); the server ignores it. */
      download_link: z.string().max(2048).optional(),
      /** the version of the license agreement the user ticked: LICENSE_AGREEMENT_VERSION */
      agreement_version: z.string().trim().min(1).max(50),
      accepted: z.literal(true, { error: 'The license agreement must be accepted' }),
    }),
    response: response({ download_link: z.string() }),
  }),
});
