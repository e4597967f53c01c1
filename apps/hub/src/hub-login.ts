import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { type Credentials, type CredentialsStore, parseCredentialsPayload } from './hub-credentials.ts';

/**
 * The hub's side of sign-in (ADR 005, RFC 8252): a one-time P-256 key pair, a listener on a random
 * loopback port, and the portal URL that carries the callback address and the public key. The
 * browser posts `enc_creds`, a JWE only this process can open, back to the listener.
 */

export const LOGIN_TIMEOUT_MS = 5 * 60_000;
export const CALLBACK_PATH = '/callback';
const KEY_ALG = 'ECDH-ES+A256KW';
const CONTENT_ENC = 'A256GCM';
/** A compact JWE of a user and two JWTs is a few KiB; anything far bigger is not the portal. */
const MAX_BODY_BYTES = 64 * 1024;

export interface HubLoginOptions {
  /** The portal's base URL, e.g. http://localhost:3000 */
  portal: string;
  store: CredentialsStore;
  timeoutMs?: number;
  /**
   * Told about each refused hand-over. The listener keeps waiting after one: any local page or
   * process can post to it, and a stray post must not cancel the user's real sign-in.
   */
  onRejected?: (reason: string) => void;
  nowMs?: () => number;
}

export interface HubLogin {
  /** The portal sign-in page to open in a browser. */
  url: string;
  callbackUrl: string;
  /** Resolves once credentials arrived and were stored; rejects on timeout, cancel or a storage failure. */
  done: Promise<Credentials>;
  /** Stops listening; `done` rejects if it had not settled. */
  cancel(reason?: string): void;
}

export class HubLoginError extends Error {
  override name = 'HubLoginError';
}

/** Base URL without trailing slashes, so paths join the same whether or not the user typed one. */
export function portalBase(portal: string): string {
  return portal.replace(/\/+$/, '');
}

export function hubLoginUrl(portal: string, callbackUrl: string, publicJwk: object): string {
  const hubKey = Buffer.from(JSON.stringify(publicJwk)).toString('base64url');
  return `${portalBase(portal)}/auth/login?target=hub&redirect=${encodeURIComponent(callbackUrl)}&hub_key=${hubKey}`;
}

export function completeUrl(portal: string, outcome: { success: true } | { success: false; message: string }): string {
  const params = new URLSearchParams(
    outcome.success ? { success: 'true' } : { success: 'false', error_message: outcome.message },
  );
  return `${portalBase(portal)}/auth/complete?${params}`;
}

/** Refusals of a hand-over; the text reaches the browser's /auth/complete page. */
class Refusal extends Error {}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new Refusal('The sign-in hand-over was not a form post.');
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit: leaving the loop early destroys the socket, and the
  // browser would get a reset instead of the failure page.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw new Refusal('The sign-in hand-over was too large.');
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startHubLogin(options: HubLoginOptions): Promise<HubLogin> {
  const portal = portalBase(options.portal);
  const nowMs = options.nowMs ?? Date.now;
  // The private key cannot be exported even by this process; it exists only for this sign-in.
  const { publicKey, privateKey } = await generateKeyPair(KEY_ALG, { crv: 'P-256', extractable: false });
  const publicJwk = await exportJWK(publicKey);

  let settled = false;
  let resolveDone!: (c: Credentials) => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<Credentials>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A caller that never awaits `done` (a test that cancels) must not crash on an unhandled rejection.
  done.catch(() => {});

  async function accept(req: IncomingMessage): Promise<Credentials> {
    const form = await readForm(req);
    const jwe = form.get('enc_creds');
    if (!jwe) throw new Refusal('The sign-in hand-over carried no credentials.');
    let plaintext: Uint8Array;
    try {
      ({ plaintext } = await compactDecrypt(jwe, privateKey, {
        keyManagementAlgorithms: [KEY_ALG],
        contentEncryptionAlgorithms: [CONTENT_ENC],
      }));
    } catch {
      throw new Refusal('The hub could not decrypt the sign-in credentials.');
    }
    let payload: ReturnType<typeof parseCredentialsPayload>;
    try {
      payload = parseCredentialsPayload(JSON.parse(new TextDecoder().decode(plaintext)));
    } catch {
      throw new Refusal('The sign-in credentials were incomplete.');
    }
    return { ...payload, portal, received_at: Math.floor(nowMs() / 1000) };
  }

  function send(res: ServerResponse, status: number, headers: Record<string, string>, body = '') {
    // `connection: close` lets the listener shut down right after the answer instead of idling
    // on the browser's keep-alive socket.
    res.writeHead(status, {
      'cache-control': 'no-store',
      connection: 'close',
      'content-type': 'text/plain; charset=utf-8',
      ...headers,
    });
    res.end(body);
  }

  const redirect = (res: ServerResponse, location: string) => send(res, 303, { location }, `See ${location}\n`);

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== CALLBACK_PATH) return send(res, 404, {}, 'Not found\n');
    if (req.method !== 'POST') return send(res, 405, { allow: 'POST' }, 'Method not allowed\n');
    if (settled) return send(res, 410, {}, 'This sign-in is over.\n');
    accept(req).then(
      async (credentials) => {
        if (settled) return send(res, 410, {}, 'This sign-in is over.\n');
        try {
          await options.store.save(credentials);
        } catch (err) {
          redirect(res, completeUrl(portal, { success: false, message: 'The hub could not store the credentials.' }));
          finish(new HubLoginError(`Could not store the credentials: ${(err as Error).message}`));
          return;
        }
        redirect(res, completeUrl(portal, { success: true }));
        finish(undefined, credentials);
      },
      (err: unknown) => {
        const message = err instanceof Refusal ? err.message : 'The hub could not complete the sign-in.';
        options.onRejected?.(message);
        // The body may be unread (refused before or during reading); drain it so the answer goes out.
        req.resume();
        redirect(res, completeUrl(portal, { success: false, message }));
      },
    );
  });

  const timer = setTimeout(
    () => finish(new HubLoginError('No sign-in arrived within 5 minutes; run login again.')),
    options.timeoutMs ?? LOGIN_TIMEOUT_MS,
  );

  function finish(error: Error | undefined, credentials?: Credentials) {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    server.close();
    // Sockets still open after their answer would hold the process; answers already written flush first.
    setImmediate(() => server.closeIdleConnections());
    if (error) rejectDone(error);
    else if (credentials) resolveDone(credentials);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the credentials must never be reachable from another machine.
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: Error) => {
    clearTimeout(timer);
    throw err;
  });

  const { port } = server.address() as AddressInfo;
  const callbackUrl = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  return {
    url: hubLoginUrl(portal, callbackUrl, publicJwk),
    callbackUrl,
    done,
    cancel: (reason = 'Sign-in cancelled.') => finish(new HubLoginError(reason)),
  };
}
