import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { PAIR_CODE_ALPHABET, PAIR_CODE_LENGTH } from '@portal/contract';
import { deriveKey } from '../../lib/keys.ts';

export interface IssuedCode {
  code: string;
  /** what lookups compare: HMAC-SHA256 of the code, hex */
  hash: string;
  /** the code sealed for its owner (AES-256-GCM, bound to the license id) */
  sealed: string;
}

/**
 * Pairing codes (docs/decisions/007): short, random, single-use. The database holds a keyed hash
 * for lookup and the code sealed under a key derived from JWT_SECRET, so the owner can see it in
 * the portal while a copy of the database alone reveals neither the code nor a way to guess it
 * offline.
 */
export class PairCodes {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(secret: string) {
    this.hashKey = deriveKey(secret, 'pair-code-hash-v1');
    this.sealKey = deriveKey(secret, 'pair-code-seal-v1');
  }

  generate(): string {
    let code = '';
    for (let i = 0; i < PAIR_CODE_LENGTH; i++) code += PAIR_CODE_ALPHABET[randomInt(PAIR_CODE_ALPHABET.length)];
    return code;
  }

  /** The lookup hash of a code as typed: case and surrounding spaces do not matter. */
  hash(code: string): string {
    return createHmac('sha256', this.hashKey).update(code.trim().toUpperCase()).digest('hex');
  }

  issue(licenseId: string, code = this.generate()): IssuedCode {
    return { code, hash: this.hash(code), sealed: this.seal(code, licenseId) };
  }

  seal(code: string, licenseId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(Buffer.from(licenseId));
    const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The sealed code, or undefined when it cannot be opened (another JWT_SECRET, another license). */
  open(sealed: string, licenseId: string): string | undefined {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(licenseId));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
