import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describeIssues, type PublicUser, publicUser, type TokenPair, tokenPair } from '@portal/contract';
import * as z from 'zod/mini';

/** The part of the user the portal hands the hub with its tokens (ADR 005). */
export type HubUser = Pick<PublicUser, 'user_id' | 'email' | 'name'>;
const hubUser = z.pick(publicUser, { user_id: true, email: true, name: true });

/** The decrypted `enc_creds` payload. */
export interface HubCredentialsPayload {
  user: HubUser;
  token_pair: TokenPair;
}

/** What the hub keeps on disk between commands. */
export interface Credentials extends HubCredentialsPayload {
  /** The portal the tokens were issued by: a token is worthless anywhere else. */
  portal: string;
  /** Epoch seconds the pair arrived; the fallback for expiry when a token's `exp` cannot be read. */
  received_at: number;
}

export const CREDENTIALS_FILE = 'credentials.json';
const APP_DIR = 'robot-portal-hub';

/**
 * Where the credentials live: `--config DIR`, else HUB_CONFIG_DIR, else the XDG config home
 * (~/.config when unset, which is also where the XDG default points).
 */
export function resolveConfigDir(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.HUB_CONFIG_DIR) return env.HUB_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, APP_DIR);
}

/** Reads the handed-over payload; throws naming the field that is wrong, never echoing a token. */
export function parseCredentialsPayload(value: unknown): HubCredentialsPayload {
  const o = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const user = hubUser.safeParse(o.user);
  if (!user.success) throw new Error(`user: ${describeIssues(user.error)}`);
  const pair = tokenPair.safeParse(o.token_pair);
  if (!pair.success) throw new Error(`token_pair: ${describeIssues(pair.error)}`);
  return { user: user.data, token_pair: pair.data };
}

export class CredentialsFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`The credentials file ${file} is unreadable (${reason}); run \`login\` again.`);
    this.name = 'CredentialsFileError';
  }
}

/**
 * The credentials file. Tokens are bearer secrets, so the file is created 0600 inside a 0700
 * folder and replaced by rename: a crash mid-write never leaves a half-written file, and a rotated
 * refresh token (the old one is dead after the grace window) is never lost to a torn write.
 */
export class CredentialsStore {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = join(dir, CREDENTIALS_FILE);
  }

  /** The stored credentials, or undefined when nobody is signed in. */
  async load(): Promise<Credentials | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new CredentialsFileError(this.file, (err as Error).message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CredentialsFileError(this.file, 'not JSON');
    }
    const o = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
    let payload: HubCredentialsPayload;
    try {
      payload = parseCredentialsPayload(o);
    } catch (err) {
      throw new CredentialsFileError(this.file, (err as Error).message);
    }
    if (typeof o.portal !== 'string' || typeof o.received_at !== 'number')
      throw new CredentialsFileError(this.file, 'portal or received_at missing');
    return { ...payload, portal: o.portal, received_at: o.received_at };
  }

  async save(credentials: Credentials): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = join(this.dir, `.${CREDENTIALS_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const body: Credentials = {
      user: credentials.user,
      token_pair: credentials.token_pair,
      portal: credentials.portal,
      received_at: credentials.received_at,
    };
    try {
      await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      // The umask can only narrow the mode, but an odd umask could also strip the owner bits.
      await chmod(tmp, 0o600);
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Deletes the file; answers whether there was one. */
  async clear(): Promise<boolean> {
    try {
      await rm(this.file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}
