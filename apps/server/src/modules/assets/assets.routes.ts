import { ApiError, assets } from '@portal/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { DOWNLOAD_PATH } from './assets.links.ts';
import { DOWNLOADS_UNAVAILABLE, STORAGE_RETRY_AFTER_S, sendLinkFailure } from './assets.pages.ts';
import { StorageUnavailable, safeFileName } from './assets.store.ts';

/** One line at error for each call storage could not serve, naming how it failed (docs/operations.md). */
function logStorageFailure(request: FastifyRequest, err: StorageUnavailable): void {
  request.log.error({ storage: err.logged() }, 'storage unavailable');
}

async function assetsRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { assets: service, downloadLinks: links } = services;

  app.mountService(assets, {
    async GetAll() {
      return { assets: await service.all() };
    },

    async GetDownload(input, { caller, request }) {
      const chosen = input.assets.artifacts[0]!;
      try {
        const download_link = await service.download(caller.userId, {
          assetId: input.asset_id,
          requestedAssetId: input.assets.id,
          path: chosen.path,
          agreementVersion: input.agreement_version,
        });
        return { download_link };
      } catch (err) {
        if (!(err instanceof StorageUnavailable)) throw err;
        logStorageFailure(request, err);
        throw new ApiError('UNAVAILABLE', `${DOWNLOADS_UNAVAILABLE} (request ${request.id})`, {
          retryAfterS: STORAGE_RETRY_AFTER_S,
        });
      }
    },
  });

  const page = (request: FastifyRequest) => ({ requestId: request.id, portalUrl: config.PUBLIC_URL });

  // A plain GET, so the browser can follow the link; the link's signature is the permission. A
  // browser shows what it answers, so every failure is an HTML page, never the JSON error object.
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    `${DOWNLOAD_PATH}/:id`,
    {
      errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
        if (err instanceof StorageUnavailable) {
          logStorageFailure(request, err);
          return sendLinkFailure(reply, 'unavailable', page(request));
        }
        const status = err instanceof ApiError ? err.status : (err.statusCode ?? 500);
        if (status < 500) return sendLinkFailure(reply, 'refused', { ...page(request), status });
        request.log.error({ err }, 'download failed');
        return sendLinkFailure(reply, 'failed', page(request));
      },
    },
    async (request, reply) => {
      const checked = links.check(request.params.id, request.query);
      if (!checked.ok) return sendLinkFailure(reply, checked.reason, page(request));
      const file = await service.deliverArtifact(request.params.id, checked.expiresAt);
      if (!file) return sendLinkFailure(reply, 'missing', page(request));
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
