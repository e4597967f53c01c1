import { z } from 'zod';
import { jwt, publicUser, tokenPair } from './common.ts';
import { PASSKEY_NAME_MAX } from './constants.ts';
import { action, response, service } from './define.ts';
import { Target } from './useraction.ts';

/**
 * The account security centre (issue 15 part 3, docs/decisions/032 and 033): where the user is
 * signed in, with a sign-out per session, and passkeys (WebAuthn) to add, name, remove and sign in
 * with. Not in the spec: these are additions, in a service of their own.
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const base64url = (max: number) =>
  z
    .string()
    .max(max, { error: `must be at most ${max} characters` })
    .regex(BASE64URL, { error: 'must be base64url' });
/** A credential id is at most 1023 bytes (WebAuthn level 3), 1364 characters of base64url. */
const credentialId = base64url(1400).min(1, { error: 'Required' });
const transports = z.array(z.string().max(32)).max(10);
const clientExtensionResults = z.record(z.string().max(64), z.unknown());

/** A passkey's name as the user types it: the add and rename forms and the server check this one rule. */
export const passkeyName = z
  .string({ error: 'Please enter a name for the passkey' })
  .trim()
  .min(1, { error: 'Please enter a name for the passkey' })
  .max(PASSKEY_NAME_MAX, { error: `Name must be at most ${PASSKEY_NAME_MAX} characters` });

/** What `navigator.credentials.create()` answered, as @simplewebauthn/browser's startRegistration gives it. */
export const registrationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096).min(1, { error: 'Required' }),
    attestationObject: base64url(16_384).min(1, { error: 'Required' }),
    authenticatorData: base64url(4096).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensionResults.default({}),
});

/** What `navigator.credentials.get()` answered, as startAuthentication gives it. */
export const authenticationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096).min(1, { error: 'Required' }),
    authenticatorData: base64url(4096).min(1, { error: 'Required' }),
    signature: base64url(2048).min(1, { error: 'Required' }),
    userHandle: base64url(1024).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensionResults.default({}),
});

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});
/** Only what the server asks for: a browser would ignore an extension it does not know anyway. */
const extensionInputs = z.object({ credProps: z.boolean().optional() });

/**
 * The options of `navigator.credentials.create()`, as JSON (WebAuthn's
 * PublicKeyCredentialCreationOptionsJSON), as @simplewebauthn/server makes them.
 */
const creationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      residentKey: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints: z.array(z.string()).optional(),
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: extensionInputs.optional(),
});

/** The options of `navigator.credentials.get()`, as JSON (PublicKeyCredentialRequestOptionsJSON). */
const requestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
  hints: z.array(z.string()).optional(),
  extensions: extensionInputs.optional(),
});

/** One live session of the user: a sign-in on the portal or the hub. Instants are ISO 8601. */
export const signInSession = z.object({
  sign_in_id: z.string(),
  target: Target,
  /** the browser's name from its user agent ("Chrome", "Firefox"...), or "Unknown browser" */
  browser: z.string(),
  /** the operating system's name from the user agent, or "Unknown system" */
  os: z.string(),
  /** the address the session was last used from */
  address: z.string(),
  started_at: z.string(),
  /** when the session last renewed its access (at most an access token's lifetime behind) */
  last_used_at: z.string(),
  /** the session that asks */
  current: z.boolean(),
});
export type SignInSession = z.infer<typeof signInSession>;

export const passkey = z.object({
  passkey_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** the authenticator may copy it to the user's other devices (a synced passkey) */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;

const uuid = z.uuid({ error: 'must be a UUID' });
/** The bearer header carries the session; the web client also puts the access token here. */
const token = jwt.optional();

export const security = service('security', '/api/security', {
  ListSessions: action({
    summary: "The user's live sessions (portal and hub), the caller's own marked current.",
    auth: 'bearer',
    request: z.object({ token }),
    response: response({ sessions: z.array(signInSession) }),
  }),
  RevokeSession: action({
    summary: "End one of the user's sessions; its next call is refused. 404 for a session that is not the user's.",
    auth: 'bearer',
    request: z.object({ token, sign_in_id: uuid }),
    response: response({}),
  }),
  RevokeOtherSessions: action({
    summary: "End every session of the user but the caller's own.",
    auth: 'bearer',
    request: z.object({ token }),
    response: response({ revoked: z.number().int() }),
  }),
  ListPasskeys: action({
    summary: "The user's passkeys.",
    auth: 'bearer',
    request: z.object({ token }),
    response: response({ passkeys: z.array(passkey) }),
  }),
  PasskeyRegistrationOptions: action({
    summary: 'Start adding a passkey: the options for navigator.credentials.create(), with a single-use challenge.',
    auth: 'bearer',
    request: z.object({ token }),
    response: response({ options: creationOptions }),
  }),
  AddPasskey: action({
    summary: 'Finish adding a passkey: verifies the new credential against its challenge, origin and RP id.',
    auth: 'bearer',
    request: z.object({ token, name: passkeyName, credential: registrationCredential }),
    response: response({ passkey }),
  }),
  RenamePasskey: action({
    summary: "Rename one of the user's passkeys.",
    auth: 'bearer',
    request: z.object({ token, passkey_id: uuid, name: passkeyName }),
    response: response({ passkey }),
  }),
  RemovePasskey: action({
    summary: "Remove one of the user's passkeys; it no longer signs in.",
    auth: 'bearer',
    request: z.object({ token, passkey_id: uuid }),
    response: response({}),
  }),
  PasskeySignInOptions: action({
    summary: 'Start a passkey sign-in: the options for navigator.credentials.get(), with a single-use challenge.',
    auth: 'none',
    request: z.object({}),
    response: response({ options: requestOptions }),
  }),
  PasskeySignIn: action({
    summary:
      'Sign in with a passkey, under the rules of password sign-in. Portal target answers a token pair; hub target answers enc_creds only.',
    auth: 'none',
    request: z.object({
      credential: authenticationCredential,
      target: Target.optional(),
      /** hub target only: the hub's one-time public key (a P-256 JWK, JSON), as login takes it */
      hub_public_key: z.string().max(2048).optional(),
      remember_me: z.boolean().optional(),
    }),
    response: z.discriminatedUnion('target', [
      response({ target: z.literal('portal'), user: publicUser, token_pair: tokenPair }),
      response({ target: z.literal('hub'), enc_creds: z.string().min(1) }),
    ]),
  }),
});
