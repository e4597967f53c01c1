import { ApiError, assets } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { DOWNLOAD_PATH } from './assets.links.ts';
import { safeFileName } from './assets.store.ts';

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
      const file = await service.deliverArtifact(request.params.id, checked.expiresAt);
      if (!file) throw new ApiError('NOT_FOUND', 'id: this artifact is no longer available');
      const { artifact, delivery } = file;
      request.log.info({ artifact: artifact.id, user: checked.userId, via: delivery.kind }, 'artifact download');
      reply.header('x-checksum-sha256', artifact.checksum).header('cache-control', 'private, no-store');
      // Object storage: off to a presigned URL that expires with the link (docs/decisions/028).
      if (delivery.kind === 'redirect') return reply.redirect(delivery.url, 302);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(delivery.size))
        .header('content-disposition', `attachment; filename="${safeFileName(artifact.fileName)}"`)
        .send(delivery.stream);
    },
  );
}

export const assetsPlugin = fp(assetsRoutes, { name: 'assets-routes', dependencies: ['actions'], encapsulate: true });
