import { useraction } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { userAgentOf } from '../auth/auth.sessions.ts';
import { CHECK_EMAIL_REGISTER, CHECK_EMAIL_RESET } from './useraction.service.ts';

/** /api/useraction: the account actions, each one call of the account service. */
async function useractionRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { accounts } = services;
  app.mountService(useraction, {
    login: (input, { ip, request }) => accounts.login(input, { address: ip, userAgent: userAgentOf(request) }),
    async logout(input) {
      await accounts.logout(input);
      return {};
    },
    'get-self': (input, { ip }) => accounts.getSelf(input, ip),
    async UserRegister(input, { ip }) {
      await accounts.register(input, ip);
      return { error: { Success: true, Code: 0, Description: CHECK_EMAIL_REGISTER } };
    },
    async UserVerifyEmail(input) {
      return { user: await accounts.verifyEmail(input) };
    },
    async UserCheckToken(input) {
      return { valid: await accounts.checkToken(input) };
    },
    async UserForgotPassword(input, { ip }) {
      await accounts.forgotPassword(input, ip);
      return { error: { Success: true, Code: 0, Description: CHECK_EMAIL_RESET } };
    },
    async UserChangePassword(input) {
      await accounts.resetPassword(input);
      return {};
    },
    async UserUpdatePassword(input, { caller, ip }) {
      await accounts.changePassword(input, caller, ip);
      return {};
    },
    async UserUpdate(input, { caller }) {
      return { user: await accounts.updateProfile(input, caller) };
    },
    async UserDelete(input, { caller, ip }) {
      await accounts.deleteAccount(input, caller, ip);
      return {};
    },
  });
}

export const useractionPlugin = fp(useractionRoutes, {
  name: 'useraction-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
