import { ApiError, assets } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { DOWNLOAD_PATH } from './assets.links.ts';

/** A file name safe inside a Content-Disposition header. */
const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_') || 'download';

async function assetsRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { assets: service, downloadLinks: links } = services;

  app.mountService(assets, {
    async GetAll() {
      return { assets: await service.all() };
    },

    async GetDownload(input, { caller }) {
      const chosen = input.assets.artifacts[0]!;
      const download_link = await service.download(caller.userId, {
        assetId: input.asset_id,
        requestedAssetId: input.assets.id,
        path: chosen.path,
        agreementVersion: input.agreement_version,
      });
      return { download_link };
    },
  });

  // A plain GET, so the browser can follow the link; the link's signature is the permission.
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    `${DOWNLOAD_PATH}/:id`,
    async (request, reply) => {
      const checked = links.check(request.params.id, request.query);
      if (!checked.ok)
        throw new ApiError(
          'FORBIDDEN',
          checked.reason === 'expired'
            ? 'expires: this download link has expired; start the download again'
            : 'sig: this download link is not valid',
        );
      const file = await service.openArtifact(request.params.id);
      if (!file) throw new ApiError('NOT_FOUND', 'id: this artifact is no longer available');
      request.log.info({ artifact: file.artifact.id, user: checked.userId }, 'artifact download');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${safeFileName(file.artifact.fileName)}"`)
        .header('x-checksum-sha256', file.artifact.checksum)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
}

export const assetsPlugin = fp(assetsRoutes, { name: 'assets-routes', dependencies: ['actions'], encapsulate: true });
