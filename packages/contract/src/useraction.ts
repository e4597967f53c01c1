import * as z from 'zod/mini';
import { jwt, normalisedEmail, password, publicUser, tokenPair } from './common.ts';
import { action, response, service } from './define.ts';
import { registrationFields, yearOfBirthIssue } from './domain/account-rules.ts';

/** tokentype of the account calls: 1 a session (access) token, 2 a password-reset token. */
export const TokenType = { Session: 1, PasswordReset: 2, EmailVerification: 3 } as const;

export const Target = z.enum(['portal', 'hub']);
export type Target = z.infer<typeof Target>;

const loginRequest = z.object({
  user: z.object({
    email: normalisedEmail,
    password: password.check(z.minLength(1, { error: 'Password is required' })),
  }),
  use_token_pairs: z.optional(z.boolean()),
  /** rememberMe of the login form; false keeps the session to the browser tab's life. */
  remember_me: z.optional(z.boolean()),
  target: z.optional(Target),
  /**
   * Hub target only: the hub's one-time public key (a P-256 JWK, JSON). The credentials come back
   * as `enc_creds`, a JWE only the hub that started the sign-in can open.
   */
  hub_public_key: z.optional(z.string().check(z.maxLength(2048))),
  turnstile_token: z.optional(z.string().check(z.maxLength(4096))),
});

export const useraction = service('useraction', '/api/useraction', {
  login: action({
    summary: 'Sign in. Portal target answers a token pair; hub target answers enc_creds only.',
    auth: 'none',
    request: loginRequest,
    response: z.discriminatedUnion('target', [
      response({ target: z.literal('portal'), user: publicUser, token_pair: tokenPair }),
      /** the hub's credentials, as a JWE only the hub that asked can open */
      response({ target: z.literal('hub'), enc_creds: z.string().check(z.minLength(1)) }),
    ]),
  }),
  logout: action({
    summary: 'Revoke the session of the given token pair.',
    auth: 'refresh',
    request: z.object({
      token_pair: z.object({ access_token: z.optional(z.string()), refresh_token: jwt }),
      user: z.object({ email: normalisedEmail }),
    }),
    response: response({}),
  }),
  'get-self': action({
    summary: 'The current user, by refresh token; rotates the refresh token and answers a new pair.',
    auth: 'refresh',
    request: z.object({ token_pair: z.object({ refresh_token: jwt }) }),
    response: response({ user: publicUser, token_pair: tokenPair }),
  }),
  UserRegister: action({
    summary: 'Create an account and email a verification link. Answers the same whether or not the email exists.',
    auth: 'none',
    request: z.object({ user: registrationFields, turnstile_token: z.optional(z.string().check(z.maxLength(4096))) }),
    response: response({}),
  }),
  UserVerifyEmail: action({
    summary: 'Mark the address validated with the emailed single-use token.',
    auth: 'none',
    request: z.object({
      token: z.string().check(z.minLength(1), z.maxLength(512)),
      tokentype: z.optional(z.literal(3)),
    }),
    response: response({ user: z.optional(z.object({ email: z.string() })) }),
  }),
  UserCheckToken: action({
    summary: 'Whether a password-reset (2) or verification (3) token is still usable.',
    auth: 'none',
    request: z.object({
      token: z.string().check(z.minLength(1), z.maxLength(512)),
      tokentype: z.union([z.literal(2), z.literal(3)]),
    }),
    response: response({ valid: z.boolean() }),
  }),
  UserForgotPassword: action({
    summary: 'Email a password-reset link. Answers the same for any address.',
    auth: 'none',
    request: z.object({ user: z.object({ email: normalisedEmail }) }),
    response: response({}),
  }),
  UserChangePassword: action({
    summary: 'Reset the password with an emailed token (tokentype 2). Revokes every session.',
    auth: 'none',
    request: z.object({
      user: z.object({ email: normalisedEmail }),
      token: z.string().check(z.minLength(1), z.maxLength(512)),
      tokentype: z.literal(2),
      password,
    }),
    response: response({}),
  }),
  UserUpdatePassword: action({
    summary: 'Change the password of a signed-in user (tokentype 1). Revokes the other sessions; this one stays.',
    auth: 'body',
    request: z.object({
      token: jwt,
      tokentype: z.literal(1),
      user: z.object({
        email: normalisedEmail,
        password: password.check(z.minLength(1, { error: 'Current password is required.' })),
      }),
      password,
    }),
    response: response({}),
  }),
  UserUpdate: action({
    summary: 'Update the profile details of the signed-in user.',
    auth: 'body',
    request: z.object({
      token: jwt,
      user: z.object({
        email: normalisedEmail,
        name: registrationFields.shape.name,
        /** -1 keeps the stored year (the profile form does not show it) */
        year_born: z.int().check(
          z.refine((y) => y === -1 || yearOfBirthIssue(y) === undefined, {
            error: 'Please select a valid year of birth',
          }),
        ),
        country: registrationFields.shape.country,
        company: registrationFields.shape.company,
        profession: z.optional(z.string().check(z.trim(), z.maxLength(100))),
      }),
    }),
    response: response({ user: z.optional(publicUser) }),
  }),
  UserDelete: action({
    summary: 'Delete the signed-in account; needs its password. Revokes every session.',
    auth: 'body',
    request: z.object({
      token: jwt,
      user: z.object({
        email: normalisedEmail,
        password: password.check(z.minLength(1, { error: 'Password is required' })),
      }),
    }),
    response: response({}),
  }),
});
