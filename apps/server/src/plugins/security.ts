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
  clock: Clock;
  publicUrl: string;
  /** the hosts (Host header) the portal answers for: `name` (any port) or `name:port` */
  allowedHosts: readonly string[];
  /** error reporting ingest, allowed as a connect-src */
  reportOrigin?: string | undefined;
  /** the web pages' inline scripts, allowed by their hashes (lib/web-pages.ts, docs/decisions/038) */
  scriptHashes?: readonly string[];
}

/** Paths any Host may ask for: load balancers probe them by address, and they tell nothing. */
const PROBES = new Set(['/healthz', '/readyz']);

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

async function security(app: FastifyInstance, opts: SecurityOptions): Promise<void> {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const allowedHosts = [...opts.allowedHosts];
  /** PUBLIC_URL's origin, or an origin whose host is allowed and whose scheme is the request's. */
  const originAllowed = (origin: string, protocol: 'http' | 'https'): boolean => {
    if (origin === publicOrigin) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return url.origin === origin && url.protocol === `${protocol}:` && hostAllowed(url.host, allowedHosts, protocol);
  };
  const https = publicOrigin.startsWith('https:');
  const csp = [
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

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });

  app.get('/api/useraction', async (_request, reply) => {
    reply.header('x-csrf-token', opts.csrf.issue(opts.clock.now().getTime()));
    reply.header('cache-control', 'no-store');
    return { error: { Success: true, Code: 0, Description: 'CSRF token in the x-csrf-token header' } };
  });

  // DNS rebinding: a page of another site whose name is made to point at the portal sends its own
  // name as Host (and as Origin). Only the portal's own hosts are answered (docs/decisions/026).
  app.addHook('onRequest', async (request) => {
    if (PROBES.has(request.url.split('?')[0] ?? '')) return;
    if (!hostAllowed(request.host, allowedHosts, request.protocol))
      throw new ApiError('FORBIDDEN', `host: ${request.host || '(none)'} is not served here`, { status: 421 });
  });

  app.addHook('onRequest', async (request) => {
    if (request.method !== 'POST' || !request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.csrf === false) return;
    const origin = request.headers.origin;
    if (origin && !originAllowed(origin, request.protocol))
      throw new ApiError('CSRF', `origin: ${origin} may not call this API`);
    const header = request.headers['x-csrf-token'];
    const verdict = opts.csrf.check(Array.isArray(header) ? header[0] : header, opts.clock.now().getTime());
    if (verdict === 'missing')
      throw new ApiError('CSRF', 'x-csrf-token: header missing (fetch one with GET /api/useraction)');
    if (verdict !== 'ok')
      throw new ApiError('CSRF', `x-csrf-token: token ${verdict} (fetch a new one with GET /api/useraction)`);
  });
}

// Not encapsulated: the headers and the CSRF check must cover every route, whoever registers it.
export const securityPlugin = fp(security, { name: 'security', fastify: '5.x', dependencies: ['errors'] });
