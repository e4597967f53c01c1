import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import {
  ApiError,
  ArtifactArch,
  ArtifactOS,
  adminReleases,
  OK,
  RELEASE_FILE_NAME,
  RELEASE_UPLOAD_PATH,
  RELEASE_VERSION,
  type ReleasePlatform,
  type ReleaseView,
} from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { auditActorOf as actorOf } from '../../plugins/actions.ts';
import type { RouteOptions } from '../../services.ts';
import type { ArtifactRow } from '../assets/assets.repository.ts';
import { type PlatformReleases, parseVersion, versionText } from '../assets/assets.service.ts';
import { StorageUnavailable } from '../assets/assets.store.ts';

/** The upload's name in the audit trail's refusals and the role message, as an action's would be. */
const UPLOAD = 'UploadRelease';

function releaseView(row: ArtifactRow, offered: ArtifactRow | undefined): ReleaseView {
  return {
    artifact_id: row.id,
    asset_id: row.assetId,
    os: row.os,
    arch: row.arch,
    version: versionText(row.versionInfo.sdk),
    file_name: row.fileName,
    size_bytes: row.sizeBytes,
    checksum: row.checksum,
    uploaded_at: row.createdAt.getTime(),
    offered: offered?.id === row.id,
    withdrawn_at: row.withdrawnAt?.getTime() ?? 0,
    withdrawn_reason: row.withdrawnReason,
  };
}

export function platformView(p: PlatformReleases): ReleasePlatform {
  return {
    os: p.os,
    arch: p.arch,
    offered_artifact_id: p.offered?.id ?? '',
    builds: p.builds.map((b) => releaseView(b, p.offered)),
  };
}

/** A build past RELEASE_MAX_BYTES: the upload stops there and nothing is stored. */
class TooLarge extends Error {}
/** A body of no bytes. */
class EmptyBuild extends Error {}

/** Passes the bytes on, failing the stream once more than `max` have come, or at the end when none did. */
function limitedTo(max: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) return done(new TooLarge());
      done(null, chunk);
    },
    flush(done) {
      done(size === 0 ? new EmptyBuild() : null);
    },
  });
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The upload's query, each field checked with a 400 naming it. */
function uploadQuery(query: Record<string, unknown>) {
  const os = ArtifactOS.safeParse(text(query.os));
  if (!os.success) throw new ApiError('VALIDATION', `os: must be one of ${ArtifactOS.options.join(', ')}`);
  const arch = ArtifactArch.safeParse(text(query.arch));
  if (!arch.success) throw new ApiError('VALIDATION', `arch: must be one of ${ArtifactArch.options.join(', ')}`);
  const versionGiven = text(query.version) ?? '';
  const version = RELEASE_VERSION.test(versionGiven) ? parseVersion(versionGiven) : undefined;
  if (!version)
    throw new ApiError('VALIDATION', 'version: must be major.minor.patch.revision, e.g. 1.4.2.0 (each 0 to 999999)');
  const fileName = text(query.file_name) ?? '';
  if (!RELEASE_FILE_NAME.test(fileName))
    throw new ApiError(
      'VALIDATION',
      'file_name: must be 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit',
    );
  return { os: os.data, arch: arch.data, version, fileName };
}

/**
 * /api/admin/releases (issue 35 item 6, docs/decisions/076): the releases' actions, and the upload
 * of a build on a route of its own. The upload is a POST, so the app's CSRF rule covers it as it
 * covers every POST under /api; its body is the build's bytes (application/octet-stream), streamed
 * to the artifact store through AssetService.addRelease (the code of `artifacts:add`), never held
 * whole in memory and never past RELEASE_MAX_BYTES.
 */
async function adminReleasesRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { assets } = services;
  app.mountService(adminReleases, {
    async ListReleases() {
      return { platforms: (await assets.releases()).map(platformView) };
    },
    async WithdrawRelease(input, { staff, ip }) {
      const platform = await assets.setWithdrawn(input.artifact_id, true, input.reason, { by: actorOf(staff), ip });
      return { platform: platformView(platform) };
    },
    async RestoreRelease(input, { staff, ip }) {
      const platform = await assets.setWithdrawn(input.artifact_id, false, input.reason, { by: actorOf(staff), ip });
      return { platform: platformView(platform) };
    },
  });

  const max = config.RELEASE_MAX_BYTES;
  const tooLarge = () =>
    new ApiError('VALIDATION', `body: a build may be at most ${max} bytes (RELEASE_MAX_BYTES); nothing was stored`, {
      status: 413,
    });

  await app.register(async (upload) => {
    // Every body is handed to the handler as the stream it is: nothing is read before the caller is
    // known to be staff, and the build's bytes go from the socket to the store.
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    upload.post<{ Querystring: Record<string, unknown> }>(
      RELEASE_UPLOAD_PATH,
      {
        // A body no parser takes (none is missing here, but Fastify may still refuse a request's
        // framing) is, for anyone without a staff credential, the unknown route's 404 as elsewhere.
        async errorHandler(err: Error & { code?: unknown; statusCode?: number }, request, reply) {
          if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP') && !(await app.identifyStaff(request)))
            return reply.callNotFound();
          throw err;
        },
      },
      async (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply: FastifyReply) => {
        const staff = await app.identifyStaff(request);
        if (!staff) return reply.callNotFound();
        await app.requireStaffRole(staff, UPLOAD, 'releases.manage', request.ip);
        const release = uploadQuery(request.query);
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
        if (type !== 'application/octet-stream')
          throw new ApiError('VALIDATION', "content-type: must be application/octet-stream (the build's bytes)", {
            status: 415,
          });
        const declared = request.headers['content-length'];
        if (declared !== undefined && Number(declared) > max) {
          // The rest of the body is not read: the connection closes after the answer.
          reply.header('connection', 'close');
          throw tooLarge();
        }
        // Piped, not handed to the store's pipeline: a failure there destroys the limiter, while the
        // socket stays open for the answer.
        const limiter = limitedTo(max);
        // The limiter may fail before the store reads it (the checks before the upload are async):
        // its failure is kept here, and the store's pipeline then fails on the destroyed stream.
        let limit: Error | undefined;
        limiter.on('error', (err) => {
          limit = err;
        });
        (request.body as Readable).pipe(limiter);
        try {
          const row = await assets.addRelease({ ...release, data: limiter }, { by: actorOf(staff), ip: request.ip });
          const platform = (await assets.releases()).find((p) => p.os === row.os && p.arch === row.arch);
          return reply.status(200).send({ release: releaseView(row, platform?.offered), error: OK });
        } catch (err) {
          // What is left of the body is not read: the connection closes after the answer.
          reply.header('connection', 'close');
          if (err instanceof TooLarge || limit instanceof TooLarge) throw tooLarge();
          if (err instanceof EmptyBuild || limit instanceof EmptyBuild)
            throw new ApiError('VALIDATION', 'body: the build is empty');
          if (err instanceof StorageUnavailable) {
            request.log.error({ storage: err.logged() }, 'storage unavailable');
            throw new ApiError('UNAVAILABLE', `${err.message}; nothing was recorded (request ${request.id})`);
          }
          throw err;
        }
      },
    );
  });
}

export const adminReleasesPlugin = fp(adminReleasesRoutes, {
  name: 'admin-releases-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
