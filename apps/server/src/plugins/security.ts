import { ApiError } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../lib/clock.ts';
import type { CsrfTokens } from '../lib/csrf.ts';

/**
 * Security headers on every answer, and the spec's CSRF protocol: `GET /api/useraction` answers a
 * token in `x-csrf-token`; every POST under /api must echo it, and a browser's Origin must be ours.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: a POST under /api that is not a browser call (a payment provider's webhook, proved by
     * its own signature) skips the Origin and CSRF checks (docs/decisions/006, 017).
     */
    csrf?: false;
  }
}

export interface SecurityOptions {
  csrf: CsrfTokens;
  /**
   * JWT_SECRET_PREVIOUS's tokens during a rotation: a token it issued is still taken, so a call
   * whose token came from an instance not yet rotated (or already rotated) is not refused (decision 058).
   */
  csrfPrevious?: CsrfTokens | undefined;
  clock: Clock;
  publicUrl: string;
  /** the hosts (Host header) the portal answers for: `name` (any port) or `name:port` */
  allowedHosts: readonly string[];
  /**
   * Other names of PUBLIC_URL's host (config.hostAliases): a page asked for there is redirected to
   * PUBLIC_URL, and any other request is told to use it (docs/operations.md#one-address-public_url).
   */
  hostAliases?: readonly string[];
  /**
   * TRUST_FORWARDED_HOST: the trusted proxy writes X-Forwarded-Host, so request.host may be taken
   * from it; otherwise the header is dropped before anything reads it.
   */
  trustForwardedHost?: boolean;
  /** error reporting ingest, allowed as a connect-src */
  reportOrigin?: string | undefined;
  /** the web pages' inline scripts, allowed by their hashes (lib/web-pages.ts, docs/decisions/038) */
  scriptHashes?: readonly string[];
}

/**
 * Paths any Host may ask for: load balancers probe them by address, and they tell nothing. A
 * scraper reads /metrics by address too, and it answers only METRICS_TOKEN (plugins/metrics.ts).
 */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
/** The Content-Security-Policy of a JSON answer. */
export const JSON_ANSWER_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Host headers whose verdict is remembered, at most. */
const HOST_VERDICTS_MAX = 64;

/**
 * The host of an absolute-form request target (`http://host:port/path`), as it is written; undefined
 * for the usual origin form (`/path`), and empty for a target that is neither.
 */
export function absoluteFormHost(target: string): string | undefined {
  if (target.startsWith('/')) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target)?.[1] ?? '';
}

/**
 * Whether a Host header names one of the allowed hosts. An entry without a port allows the name on
 * any port; the default port of the protocol may be left out of the header (`example.com` is
 * `example.com:443` over https).
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[], protocol: 'http' | 'https'): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  const match = /^(.*?)(?::(\d+))?$/.exec(lower);
  const name = match?.[1] ?? lower;
  const port = match?.[2] ?? (protocol === 'https' ? '443' : '80');
  return allowed.some((entry) => {
    const [, entryName = entry, entryPort] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
    if (entryName !== name) return false;
    return entryPort === undefined || entryPort === port;
  });
}

/**
 * Whether an origin is the portal's own: PUBLIC_URL's, or one of `protocol` on an allowed host. A
 * browser's Origin must be one to call the API, and a checkout's return addresses must lead to one.
 */
export function portalOrigin(
  origin: string,
  opts: { publicOrigin: string; allowedHosts: readonly string[] },
  protocol: 'http' | 'https',
): boolean {
  if (origin === opts.publicOrigin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === origin && url.protocol === `${protocol}:` && hostAllowed(url.host, opts.allowedHosts, protocol);
}

/** The path and query of a request target, whether written as `/path?q` or `http://host/path?q`. */
function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return '/';
  }
}

/**
 * The Content-Security-Policy of the web app's pages. `npm run dev` serves its pages with this policy
 * plus what hot reload needs, added by scripts/dev-csp.ts and only there (docs/decisions/054):
 * nothing here is relaxed for development.
 */
export function pageContentSecurityPolicy(opts: Pick<SecurityOptions, 'scriptHashes' | 'reportOrigin'>): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(opts.scriptHashes ?? [])].join(' '),
    // Radix positions popovers with inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Avatars come from a Gravatar-compatible service (initials are the fallback).
    "img-src 'self' data: blob: https://www.gravatar.com",
    "font-src 'self' data:",
    `connect-src 'self'${opts.reportOrigin ? ` ${opts.reportOrigin}` : ''}`,
    // The hub sign-in posts the encrypted credentials to the hub's loopback listener (RFC 8252).
    "form-action 'self' http://127.0.0.1:* http://localhost:*",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

async function security(app: FastifyInstance, opts: SecurityOptions): Promise<void> {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const allowedHosts = [...opts.allowedHosts];
  const hostAliases = [...(opts.hostAliases ?? [])];
  /** PUBLIC_URL's origin, or an origin whose host is allowed and whose scheme is the request's. */
  const originAllowed = (origin: string, protocol: 'http' | 'https'): boolean =>
    portalOrigin(origin, { publicOrigin, allowedHosts }, protocol);
  const https = publicOrigin.startsWith('https:');
  const csp = pageContentSecurityPolicy(opts);

  // A JSON answer is no document: nothing in it may load or run, whatever opens it. Its policy says
  // so in a few bytes instead of the pages' ~500 (docs/decisions/041), and the headers that only
  // govern a document (referrer, opener and permissions policies) stay off it (decision 043).
  const jsonHeaders: Record<string, string> = {
    'content-security-policy': JSON_ANSWER_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  const headers: Record<string, string> = {
    ...jsonHeaders,
    'content-security-policy': csp,
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  // The hooks here run on every request: they take a callback instead of being async, which saves
  // a promise and a turn of the microtask queue each (docs/performance.md).
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    reply.headers(typeof type === 'string' && type.startsWith('application/json') ? jsonHeaders : headers);
    done(null, payload);
  });

  app.get('/api/useraction', async (_request, reply) => {
    reply.header('x-csrf-token', opts.csrf.issue(opts.clock.now().getTime()));
    reply.header('cache-control', 'no-store');
    return { error: { Success: true, Code: 0, Description: 'CSRF token in the x-csrf-token header' } };
  });

  // DNS rebinding: a page of another site whose name is made to point at the portal sends its own
  // name as Host (and as Origin). Only the portal's own hosts are answered (docs/decisions/026).
  // The answers for the hosts seen so far (a handful in practice); past the bound, each is worked out.
  const hostVerdicts = new Map<string, boolean>();
  const hostServed = (host: string, protocol: 'http' | 'https'): boolean => {
    const key = `${protocol} ${host}`;
    let verdict = hostVerdicts.get(key);
    if (verdict === undefined) {
      verdict = hostAllowed(host, allowedHosts, protocol);
      if (hostVerdicts.size < HOST_VERDICTS_MAX) hostVerdicts.set(key, verdict);
    }
    return verdict;
  };

  const trustForwardedHost = opts.trustForwardedHost === true;
  app.addHook('onRequest', (request, reply, done) => {
    // Under TRUST_PROXY, Fastify's request.host is the last X-Forwarded-Host, and a proxy that does
    // not write that header passes on the client's. Unless TRUST_FORWARDED_HOST says the proxy
    // writes it, it goes here, before anything reads it: the Host check below, and every other
    // reader of request.host and request.hostname, see the Host header (issue 33).
    if (!trustForwardedHost && request.raw.headers['x-forwarded-host'] !== undefined)
      delete request.raw.headers['x-forwarded-host'];
    const protocol = request.protocol;
    // Every check here reads the route the router chose, never the request line: the router decodes
    // `/%61pi/useraction` and takes the absolute form `http://host/api/useraction` to the same route
    // as `/api/useraction`, which a test of the raw line would let through (issue 33).
    const route = request.routeOptions.url;
    if (!PROBES.has(route ?? '')) {
      if (!hostServed(request.host, protocol)) {
        if (!hostAllowed(request.host, hostAliases, protocol))
          throw new ApiError('FORBIDDEN', `host: ${request.host || '(none)'} is not served here`, { status: 421 });
        // Another name of PUBLIC_URL's host: a page there would start a session and a checkout on
        // an origin the portal does not serve (issue 32), so it is sent to PUBLIC_URL, the same
        // path and query. 302, not 308: a browser keeps a permanent redirect for good, and
        // ALLOWED_HOSTS or PUBLIC_URL may change. A call is answered an error naming the address.
        const path = pathAndQuery(request.originalUrl);
        const page = request.method === 'GET' || request.method === 'HEAD';
        if (!page || route?.startsWith('/api/') || path.startsWith('/api/'))
          throw new ApiError('FORBIDDEN', `host: ${request.host} is not this portal's address: use ${publicOrigin}`, {
            status: 421,
          });
        reply.redirect(`${publicOrigin}${path}`, 302);
        return;
      }
      // An absolute form names the host in the request line too (RFC 9112 reads that one): both must be ours.
      const lineHost = absoluteFormHost(request.originalUrl);
      if (lineHost !== undefined && !hostServed(lineHost, protocol))
        throw new ApiError('FORBIDDEN', `host: ${lineHost || '(none)'} is not served here`, { status: 421 });
    }

    if (request.method === 'POST' && route?.startsWith('/api/') && request.routeOptions.config?.csrf !== false) {
      const origin = request.headers.origin;
      if (origin && !originAllowed(origin, protocol))
        throw new ApiError('CSRF', `origin: ${origin} may not call this API`);
      const header = request.headers['x-csrf-token'];
      const token = Array.isArray(header) ? header[0] : header;
      const now = opts.clock.now().getTime();
      let verdict = opts.csrf.check(token, now);
      if (verdict === 'invalid' && opts.csrfPrevious) verdict = opts.csrfPrevious.check(token, now);
      if (verdict === 'missing')
        throw new ApiError('CSRF', 'x-csrf-token: header missing (fetch one with GET /api/useraction)');
      if (verdict !== 'ok')
        throw new ApiError('CSRF', `x-csrf-token: token ${verdict} (fetch a new one with GET /api/useraction)`);
    }
    done();
  });
}

// Not encapsulated: the headers and the CSRF check must cover every route, whoever registers it.
export const securityPlugin = fp(security, { name: 'security', fastify: '5.x', dependencies: ['errors'] });
