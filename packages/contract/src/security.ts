import * as z from 'zod/mini';
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
    .check(
      z.maxLength(max, { error: `must be at most ${max} characters` }),
      z.regex(BASE64URL, { error: 'must be base64url' }),
    );
/** A credential id is at most 1023 bytes (WebAuthn level 3), 1364 characters of base64url. */
const credentialId = base64url(1400).check(z.minLength(1, { error: 'Required' }));
const transports = z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10));
const clientExtensionResults = z.record(z.string().check(z.maxLength(64)), z.unknown());

/** A passkey's name as the user types it: the add and rename forms and the server check this one rule. */
export const passkeyName = z
  .string({ error: 'Please enter a name for the passkey' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'Please enter a name for the passkey' }),
    z.maxLength(PASSKEY_NAME_MAX, { error: `Name must be at most ${PASSKEY_NAME_MAX} characters` }),
  );

/** What `navigator.credentials.create()` answered, as @simplewebauthn/browser's startRegistration gives it. */
export const registrationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096).check(z.minLength(1, { error: 'Required' })),
    attestationObject: base64url(16_384).check(z.minLength(1, { error: 'Required' })),
    authenticatorData: z.optional(base64url(4096)),
    transports: z.optional(transports),
    publicKeyAlgorithm: z.optional(z.int()),
    publicKey: z.optional(base64url(4096)),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z._default(clientExtensionResults, {}),
});

/** What `navigator.credentials.get()` answered, as startAuthentication gives it. */
export const authenticationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096).check(z.minLength(1, { error: 'Required' })),
    authenticatorData: base64url(4096).check(z.minLength(1, { error: 'Required' })),
    signature: base64url(2048).check(z.minLength(1, { error: 'Required' })),
    userHandle: z.optional(base64url(1024)),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z._default(clientExtensionResults, {}),
});

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.optional(z.array(z.string())),
});
/** Only what the server asks for: a browser would ignore an extension it does not know anyway. */
const extensionInputs = z.object({ credProps: z.optional(z.boolean()) });

/**
 * The options of `navigator.credentials.create()`, as JSON (WebAuthn's
 * PublicKeyCredentialCreationOptionsJSON), as @simplewebauthn/server makes them.
 */
const creationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.optional(z.string()) }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.optional(z.number()),
  excludeCredentials: z.optional(z.array(credentialDescriptor)),
  authenticatorSelection: z.optional(
    z.object({
      authenticatorAttachment: z.optional(z.string()),
      residentKey: z.optional(z.string()),
      requireResidentKey: z.optional(z.boolean()),
      userVerification: z.optional(z.string()),
    }),
  ),
  hints: z.optional(z.array(z.string())),
  attestation: z.optional(z.string()),
  attestationFormats: z.optional(z.array(z.string())),
  extensions: z.optional(extensionInputs),
});

/** The options of `navigator.credentials.get()`, as JSON (PublicKeyCredentialRequestOptionsJSON). */
const requestOptions = z.object({
  challenge: z.string(),
  rpId: z.optional(z.string()),
  timeout: z.optional(z.number()),
  allowCredentials: z.optional(z.array(credentialDescriptor)),
  userVerification: z.optional(z.string()),
  hints: z.optional(z.array(z.string())),
  extensions: z.optional(extensionInputs),
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
  last_used_at: z.nullable(z.string()),
  /** the authenticator may copy it to the user's other devices (a synced passkey) */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;

const uuid = z.uuid({ error: 'must be a UUID' });
/** A staff enrolment link's token (base64url, as the link carries it). */
const enrolmentToken = z
  .string({ error: 'Enrolment token is required' })
  .check(
    z.minLength(16, { error: 'Enrolment token is not a link token' }),
    z.maxLength(128, { error: 'Enrolment token is not a link token' }),
    z.regex(BASE64URL, { error: 'Enrolment token is not a link token' }),
  );
/** The bearer header carries the session; the web client also puts the access token here. */
const token = z.optional(jwt);

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
    response: response({ revoked: z.int() }),
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
      target: z.optional(Target),
      /** hub target only: the hub's one-time public key (a P-256 JWK, JSON), as login takes it */
      hub_public_key: z.optional(z.string().check(z.maxLength(2048))),
      remember_me: z.optional(z.boolean()),
    }),
    response: z.discriminatedUnion('target', [
      response({ target: z.literal('portal'), user: publicUser, token_pair: tokenPair }),
      response({ target: z.literal('hub'), enc_creds: z.string().check(z.minLength(1)) }),
    ]),
  }),
  StaffEnrolmentOptions: action({
    summary:
      'Open a staff enrolment link (issue 34): who it is for and the options for navigator.credentials.create(), with a single-use challenge. 404 naming `enrolment_token` when the link is unknown, used or expired.',
    auth: 'none',
    request: z.object({ enrolment_token: enrolmentToken }),
    response: response({ email: z.string(), role: z.string(), options: creationOptions }),
  }),
  StaffEnrol: action({
    summary:
      'Finish a staff enrolment: registers the passkey, marks the email verified, uses up the link and signs the staff member in with that passkey (a staff session, so the console opens). An audit entry staff.enrol.',
    auth: 'none',
    request: z.object({
      enrolment_token: enrolmentToken,
      name: passkeyName,
      credential: registrationCredential,
    }),
    response: response({ user: publicUser, token_pair: tokenPair }),
  }),
});
