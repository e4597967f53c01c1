import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, for server tests: a P-256 key made with node:crypto, the
 * authenticator data, client data and a "none" attestation built by hand and encoded with the CBOR
 * encoder @simplewebauthn/server ships. Each answer can be bent one way (another origin, RP id,
 * challenge, counter...) to check that the server refuses it.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Bend {
  /** the origin the "browser" writes into the client data */
  origin?: string;
  /** the RP id whose hash the authenticator data carries */
  rpId?: string;
  /** the challenge the client data carries instead of the options' */
  challenge?: string;
  /** the signature counter this answer reports (else the authenticator's next one) */
  counter?: number;
  /** the credential the answer names */
  credentialId?: string;
  /** the user handle of a sign-in (else the one the passkey was made for) */
  userHandle?: string | null;
  /** user verification (a PIN, biometrics) done */
  verified?: boolean;
}

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());

function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class SoftwareAuthenticator {
  readonly credentialId = b64(randomBytes(32));
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;
  /** the user handle the passkey was made for (base64url) */
  userHandle = '';

  constructor(
    private readonly rpId = 'localhost',
    private readonly origin = 'http://localhost:3999',
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  /** The public key as COSE (EC2, ES256, P-256). */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
      ]),
    );
  }

  private clientData(type: string, challenge: string, bend: Bend): Uint8Array {
    return new TextEncoder().encode(
      JSON.stringify({
        type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  private flags(bend: Bend, extra = 0): Uint8Array {
    return Uint8Array.of(FLAG_UP | (bend.verified === false ? 0 : FLAG_UV) | extra);
  }

  /** What navigator.credentials.create() answers for these options (RegistrationResponseJSON). */
  register(options: { challenge: string; user: { id: string } }, bend: Bend = {}) {
    this.userHandle = options.user.id;
    const credentialId = bend.credentialId ?? this.credentialId;
    const idBytes = isoBase64URL.toBuffer(credentialId);
    const idLength = Uint8Array.of(idBytes.length >> 8, idBytes.length & 0xff);
    const authData = concat(
      sha256(bend.rpId ?? this.rpId),
      this.flags(bend, FLAG_AT),
      u32(bend.counter ?? this.counter),
      new Uint8Array(16),
      idLength,
      idBytes,
      this.coseKey(),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge, bend)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** What navigator.credentials.get() answers for these options (AuthenticationResponseJSON). */
  authenticate(options: { challenge: string }, bend: Bend = {}) {
    if (bend.counter === undefined) this.counter += 1;
    const authData = concat(sha256(bend.rpId ?? this.rpId), this.flags(bend), u32(bend.counter ?? this.counter));
    const clientData = this.clientData('webauthn.get', options.challenge, bend);
    const signature = sign('sha256', concat(authData, sha256(clientData)), this.privateKey);
    const credentialId = bend.credentialId ?? this.credentialId;
    const userHandle = bend.userHandle === undefined ? this.userHandle : bend.userHandle;
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
