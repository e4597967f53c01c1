import { security } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { userAgentOf } from '../auth/auth.sessions.ts';

/** /api/security: the account security centre (sessions, passkeys), each one call of its service. */
async function securityRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { security: centre } = services;
  app.mountService(security, {
    async ListSessions(_input, { caller }) {
      return { sessions: await centre.listSessions(caller) };
    },
    async RevokeSession(input, { caller }) {
      await centre.revokeSession(caller, input.sign_in_id);
      return {};
    },
    async RevokeOtherSessions(_input, { caller }) {
      return { revoked: await centre.revokeOtherSessions(caller) };
    },
    async ListPasskeys(_input, { caller }) {
      return { passkeys: await centre.listPasskeys(caller) };
    },
    async PasskeyRegistrationOptions(_input, { caller }) {
      return { options: await centre.registrationOptions(caller) };
    },
    async AddPasskey(input, { caller }) {
      return { passkey: await centre.addPasskey(caller, input) };
    },
    async RenamePasskey(input, { caller }) {
      return { passkey: await centre.renamePasskey(caller, input.passkey_id, input.name) };
    },
    async RemovePasskey(input, { caller }) {
      await centre.removePasskey(caller, input.passkey_id);
      return {};
    },
    async PasskeySignInOptions(_input, { ip }) {
      return { options: await centre.signInOptions(ip) };
    },
    PasskeySignIn: (input, { ip, request }) => centre.signIn(input, { address: ip, userAgent: userAgentOf(request) }),
    async StaffEnrolmentOptions(input, { ip }) {
      return centre.staffEnrolmentOptions(input, ip);
    },
    StaffEnrol: (input, { ip, request }) => centre.staffEnrol(input, { address: ip, userAgent: userAgentOf(request) }),
  });
}

export const securityPlugin = fp(securityRoutes, {
  name: 'security-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
