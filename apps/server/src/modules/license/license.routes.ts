import { errorBody, license } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** The pairing-code window of RATE_PAIR_PER_ACCOUNT and RATE_PAIR_PER_ADDRESS. */
export const PAIR_WINDOW_S = 15 * 60;

async function licenseRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { licenses, sharing, accounts, limiter } = services;

  app.mountService(license, {
    async GetLicences(_input, { caller }) {
      const user_licenses = await licenses.licensesOf(caller);
      const none =
        user_licenses.robot_licenses.length === 0 &&
        user_licenses.shared_robot_licenses.length === 0 &&
        user_licenses.asset_licenses.length === 0;
      // Code 23 answers empty lists with HTTP 200, as the spec's client expects.
      return none ? { user_licenses, ...errorBody('NO_LICENSES', 'No licenses') } : { user_licenses };
    },

    async BUYASSET(input, { request }) {
      const user = await accounts.requireByEmail(input.email);
      const granted = await licenses.grantAsset(user.id, {
        assetId: input.asset_id,
        durationS: input.duration,
        source: 'operator',
      });
      request.log.info({ user: user.id, asset: input.asset_id }, 'operator granted an asset license');
      return { asset_license: granted.assetLicense };
    },

    async SHARELICENSE(input, { caller, request }) {
      return sharing.share(
        caller,
        { licenseId: input.license_id, recipientEmail: input.recipient_email, durationS: input.duration },
        request.log,
      );
    },

    async STOPSHAREDLICENSE(input, { caller }) {
      return sharing.stopSharing(caller, {
        licenseId: input.license_id,
        recipientEmail: input.recipient_email,
      });
    },

    async GETSHAREDLICENSES(_input, { caller }) {
      return sharing.sharesOf(caller);
    },

    async PAIRROBOT(input, { caller, ip }) {
      // Counted before the code is looked at: guesses cost attempts whether they hit or not.
      const message = 'Too many pairing attempts. Please wait a few minutes and try again.';
      await limiter.hit(`pair:acct:${caller.userId}`, config.RATE_PAIR_PER_ACCOUNT, PAIR_WINDOW_S, message);
      await limiter.hit(`pair:ip:${ip}`, config.RATE_PAIR_PER_ADDRESS, PAIR_WINDOW_S, message);
      return {
        robot_license: await licenses.pair(caller, { pairCode: input.pair_code, robotId: input.robot_id }),
      };
    },

    async REGENERATEPAIRCODE(input, { caller }) {
      return { robot_license: await licenses.regenerate(caller, input.license_id) };
    },

    async UNPAIR(input, { caller }) {
      return { robot_license: await licenses.unpair(caller, input.license_id) };
    },
  });
}

export const licensePlugin = fp(licenseRoutes, {
  name: 'license-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
