import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_GOODWILL_MAX_MINUTES, DEVELOPMENT_PORTAL_CONFIG, ONE_DAY_S, PRODUCT_NAME } from '@portal/contract';
import { type OptionsGraph, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { z } from 'zod';
import { defaultHashConcurrency } from './lib/passwords.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): never a real deployment's address. */
const PLACEHOLDER_DOMAIN = /(^|\.)(example|invalid|test|localhost|example\.(com|net|org))$/i;

/** Whether a URL's host, or the domain of a mailto: URL or an email address, is a placeholder. */
export function isPlaceholderAddress(address: string): boolean {
  const mailbox = /^mailto:/i.test(address) ? address.slice(7) : address.includes('://') ? undefined : address;
  let domain: string;
  try {
    domain = mailbox === undefined ? new URL(address).hostname : mailbox.slice(mailbox.lastIndexOf('@') + 1);
  } catch {
    return true;
  }
  return PLACEHOLDER_DOMAIN.test(domain.replace(/[?#].*$/, '').replace(/\.$/, ''));
}

/**
 * JWT_SECRET keys every token, CSRF token, pairing code and download link: a secret that is short,
 * a placeholder copied from an example, of few distinct characters, or made of runs, repeats,
 * sequences or keyboard walks is refused. The estimate is the length times the entropy of the
 * secret's own character frequencies; a random base64url secret of 32 characters scores about 150
 * bits, a repeated word far less. Frequencies cannot see order, so `abcdefghijklmnopqrstuvwxyzabcdef`
 * scores 148 bits by them: zxcvbn-ts's matchers find the patterned stretches, each counts the bits
 * of zxcvbn's guess estimate for it, and only the rest counts by its frequencies (issue 33).
 */
export const JWT_SECRET_MIN_BITS = 120;
const PLACEHOLDER_SECRET =
  /change[-_ .]?(me|this|it)|replace[-_ .]?me|your[-_ .]?(jwt[-_ .]?)?secret|secret[-_ .]?key|placeholder|example|dummy|^(secret|password|jwt)/i;

/** The zxcvbn-ts patterns a secret must not lean on, and how a refusal names them. */
const SECRET_PATTERNS: Readonly<Record<string, string>> = {
  repeat: 'a repeat',
  sequence: 'a sequence',
  spatial: 'a keyboard walk',
};

/**
 * zxcvbn-ts without dictionaries (words are the placeholder test's business): its repeat, sequence,
 * spatial, date and separator matchers, and its guess estimates. The keyboard layouts come from
 * @zxcvbn-ts/language-common, loaded on first use as lib/common-passwords.ts loads its list.
 */
let patternMatcher: ZxcvbnFactory | undefined;
function secretPatterns(secret: string) {
  if (!patternMatcher) {
    const { adjacencyGraphs } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
      adjacencyGraphs: OptionsGraph;
    };
    patternMatcher = new ZxcvbnFactory({ graphs: adjacencyGraphs });
  }
  return patternMatcher.check(secret).sequence;
}

/** Bits by a text's own character frequencies (length times entropy), and its distinct characters. */
function frequencyBits(text: string): { bits: number; distinct: number } {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / text.length) * Math.log2(n / text.length);
  return { bits: perChar * text.length, distinct: counts.size };
}

export function secretStrengthIssue(secret: string): string | undefined {
  if (secret.length < 32) return 'must be at least 32 characters';
  if (PLACEHOLDER_SECRET.test(secret)) return 'looks like a placeholder; generate one, e.g. openssl rand -base64 48';
  const whole = frequencyBits(secret);
  if (whole.distinct < 12 || whole.bits < JWT_SECRET_MIN_BITS)
    return 'is too predictable (too few distinct characters); generate one, e.g. openssl rand -base64 48';
  let rest = '';
  let patternBits = 0;
  const found = new Set<string>();
  for (const match of secretPatterns(secret)) {
    const name = SECRET_PATTERNS[match.pattern];
    if (name === undefined) rest += match.token;
    else {
      patternBits += Math.log2(Number(match.guesses));
      found.add(name);
    }
  }
  if (found.size && frequencyBits(rest).bits + patternBits < JWT_SECRET_MIN_BITS)
    return `is too predictable (it holds ${[...found].join(' and ')}); generate one, e.g. openssl rand -base64 48`;
  return undefined;
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4/IPv6 address, or one with a /prefix (CIDR). */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY names the proxy in front of the portal, as Fastify's trustProxy takes it: addresses
 * and CIDRs (or loopback, linklocal, uniquelocal), or the number of proxy hops. `true` is refused:
 * it trusts the left-most X-Forwarded-For, which the client writes (docs/decisions/026).
 */
export const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (/^(false|no|off|0)$/i.test(value)) return false;
    if (/^(true|yes|on)$/i.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust any X-Forwarded-For a client writes; name the proxy: its addresses or CIDRs (e.g. 10.0.0.0/8) or a hop count (e.g. 1)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > 10) ctx.addIssue({ code: 'custom', message: 'a hop count must be 1 to 10' });
      return hops;
    }
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    for (const entry of entries)
      if (!PROXY_RANGE_NAMES.has(entry) && !isAddressOrCidr(entry))
        ctx.addIssue({
          code: 'custom',
          message: `${entry} is not an address, a CIDR, loopback, linklocal or uniquelocal`,
        });
    return entries;
  });

/** A host as the Host header carries it: a name or an address, with an optional port. */
const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?$/;
export const allowedHostsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .superRefine((entries, ctx) => {
    if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one host' });
    for (const entry of entries)
      if (!HOST_ENTRY.test(entry))
        ctx.addIssue({ code: 'custom', message: `${entry} is not a host or host:port (e.g. portal.acme.co.uk)` });
  });

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The hosts the portal answers when ALLOWED_HOSTS is unset: PUBLIC_URL's, and when that is a
 * loopback address the other loopback names on the same port, so `npm start` works as
 * http://localhost:3000 and http://127.0.0.1:3000 alike (one of them by a redirect: defaultHosts).
 */
export function defaultAllowedHosts(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const hosts = [url.host.toLowerCase()];
  if (LOOPBACK_NAMES.includes(url.hostname.toLowerCase()))
    for (const name of LOOPBACK_NAMES) hosts.push(url.port ? `${name}:${url.port}` : name);
  return [...new Set(hosts)];
}

/**
 * defaultAllowedHosts split in two. Served as themselves: PUBLIC_URL's host, and a passkey origin's
 * (WebAuthn takes no IP address, so a PUBLIC_URL on 127.0.0.1 keeps its passkeys on localhost).
 * The others are aliases: a page asked for there is sent to PUBLIC_URL, and a call is told to use it
 * (plugins/security.ts; docs/operations.md#one-address-public_url).
 */
export function defaultHosts(
  publicUrl: string,
  passkeyOrigins: readonly string[],
): { served: string[]; aliases: string[] } {
  const own = new Set([publicUrl, ...passkeyOrigins].map((address) => new URL(address).host.toLowerCase()));
  const hosts = defaultAllowedHosts(publicUrl);
  return { served: hosts.filter((host) => own.has(host)), aliases: hosts.filter((host) => !own.has(host)) };
}

const jwtSecretSchema = z.string().superRefine((secret, ctx) => {
  const issue = secretStrengthIssue(secret);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
});

/** Every environment variable the server reads, with its default. Documented in docs/operations.md. */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(0, 65535).default(3000),
    HOST: z.string().min(1).default('localhost'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
    JWT_SECRET: jwtSecretSchema.optional(),
    /**
     * During a rotation, the secret JWT_SECRET had before: tokens signed with it still verify (and
     * refresh into tokens of the new one) until they expire, so a rotation signs nobody out
     * (docs/decisions/058, docs/operations.md#rotating-keys-and-credentials).
     */
    JWT_SECRET_PREVIOUS: jwtSecretSchema.optional(),
    /**
     * The key of the audit trail's HMAC over personal fields (decision 069); unset: derived from
     * JWT_SECRET (entries name their key, so a rotation with JWT_SECRET_PREVIOUS stays verifiable).
     */
    /** A staff session (decision 070): its absolute limit and its idle limit, checked at refresh. */
    STAFF_SESSION_MAX_S: int(600, 7 * ONE_DAY_S).default(8 * 3_600),
    STAFF_SESSION_IDLE_S: int(60, ONE_DAY_S).default(30 * 60),
    /** The most dial minutes support may grant at once as goodwill (ADD_TIME with a support key). */
    STAFF_GOODWILL_MAX_MINUTES: int(0, 100_000).default(DEFAULT_GOODWILL_MAX_MINUTES),
    AUDIT_HMAC_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ACCESS_TOKEN_TTL_S: int(60, ONE_DAY_S).default(900),
    REFRESH_TOKEN_TTL_S: int(300, 90 * ONE_DAY_S).default(7 * ONE_DAY_S),
    /** A rotated refresh token still works this long, so two tabs refreshing at once both succeed. */
    REFRESH_REUSE_GRACE_S: int(0, 300).default(30),
    /** Failed sign-ins from one address at one account before that address is locked out of it (code 45). */
    LOGIN_MAX_FAILURES: int(1, 1000).default(5),
    LOCKOUT_S: int(1, ONE_DAY_S).default(15 * 60),
    /** Failures at one account from every address together before the account-wide delay starts (docs/decisions/026). */
    LOGIN_ACCOUNT_FREE_FAILURES: int(1, 10_000).default(10),
    /** The first account-wide delay; it doubles with each further failure. */
    LOGIN_ACCOUNT_DELAY_S: int(1, 3_600).default(2),
    /** The longest account-wide delay (a code-45 lock); a password reset ends it. */
    LOGIN_ACCOUNT_MAX_LOCK_S: int(1, ONE_DAY_S).default(15 * 60),
    /** Failures are forgotten after this long without another one. */
    LOGIN_FAILURE_MEMORY_S: int(60, 30 * ONE_DAY_S).default(ONE_DAY_S),
    /** An address that signed in to an account this recently is not held by that account's account-wide delay. */
    LOGIN_KNOWN_ADDRESS_S: int(0, 365 * ONE_DAY_S).default(30 * ONE_DAY_S),
    RATE_LOGIN_PER_ADDRESS: int(1, 1_000_000).default(60),
    RATE_FORGOT_PER_ADDRESS: int(1, 1_000_000).default(20),
    RATE_FORGOT_PER_ACCOUNT: int(1, 1_000_000).default(3),
    RATE_REGISTER_PER_ADDRESS: int(1, 1_000_000).default(20),
    /** Registration mails (verification or "already registered") one address gets per REGISTER_MAIL_WINDOW_S. */
    REGISTER_MAILS_PER_RECIPIENT: int(1, 1_000).default(3),
    REGISTER_MAIL_WINDOW_S: int(60, 30 * ONE_DAY_S).default(ONE_DAY_S),
    /** Robots (REGISTERSIM) one account may register per hour. */
    RATE_REGISTERSIM_PER_ACCOUNT: int(1, 1_000_000).default(60),
    /** Shares one owner may start, and share mails one address may get, per SHARE_INVITE_WINDOW_S (docs/decisions/023). */
    SHARE_INVITES_PER_SENDER: int(1, 1_000_000).default(20),
    SHARE_INVITES_PER_RECIPIENT: int(1, 1_000_000).default(5),
    SHARE_INVITE_WINDOW_S: int(60, 30 * ONE_DAY_S).default(ONE_DAY_S),
    /** STOPSHAREDLICENSE calls one account may make per hour. */
    RATE_STOP_SHARE_PER_ACCOUNT: int(1, 1_000_000).default(30),
    /** The largest request body accepted, in bytes (413 past it). */
    BODY_LIMIT_BYTES: int(1024, 16 * 1024 * 1024).default(256 * 1024),
    VERIFY_TOKEN_TTL_S: int(60, 30 * ONE_DAY_S).default(2 * ONE_DAY_S),
    RESET_TOKEN_TTL_S: int(60, 7 * ONE_DAY_S).default(60 * 60),
    ARGON2_MEMORY_KIB: int(1024, 1_048_576).default(19_456),
    ARGON2_TIME_COST: int(1, 10).default(2),
    /** Password hashes at once (docs/decisions/024); default one less than the cores, at least 1. */
    HASH_CONCURRENCY: int(1, 256).optional(),
    /** Hashes that may wait for a turn; past that, sign-in answers 503 BUSY with Retry-After. */
    HASH_QUEUE_MAX: int(0, 100_000).default(64),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
    MAIL_FROM: z.string().min(3).default('Robot Portal <no-reply@robot-portal.local>'),
    DEMO_EMAIL: z.email().default('demo@robot-portal.local'),
    DEMO_PASSWORD: z.string().min(8).default('Demo-Robot-2026!'),
    SEED_DEMO: bool.optional(),
    TRUST_PROXY: trustProxySchema.default(false),
    /**
     * Whether the proxy named by TRUST_PROXY writes X-Forwarded-Host itself (and drops a client's):
     * only then is it read, for the Host check and request.host alike; otherwise it is ignored
     * (docs/operations.md#sign-in-accounts-and-limits).
     */
    TRUST_FORWARDED_HOST: bool.default(false),
    /** The hosts (Host header) the portal answers for; by default PUBLIC_URL's (docs/decisions/026). */
    ALLOWED_HOSTS: allowedHostsSchema.optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** One info line per request (method, path, status, time); false keeps only warnings and errors. */
    LOG_REQUESTS: bool.default(true),
    WEB_DIST: z.string().optional(),
    // The addresses the web app links to, handed to it at run time (docs/operations.md#the-web-apps-addresses).
    DOCS_URL: httpUrl.default(DEVELOPMENT_PORTAL_CONFIG.docsUrl),
    TUTORIALS_URL: httpUrl.default(DEVELOPMENT_PORTAL_CONFIG.tutorialsUrl),
    /** The user menu's Get Support: a help centre (https://) or a mailbox (mailto:). */
    SUPPORT_URL: z
      .url({ protocol: /^(https?|mailto)$/, error: 'must be an http(s):// or mailto: URL' })
      .default(DEVELOPMENT_PORTAL_CONFIG.supportUrl),
    PRIVACY_CONTACT_EMAIL: z.email().default(DEVELOPMENT_PORTAL_CONFIG.privacyEmail),
    /**
     * The support team's mailbox (issue 35): told of every new support request and every customer
     * answer, with a link to the console; unset, nobody is (logged once at start).
     */
    SUPPORT_INBOX_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    /** The date the privacy policy says it applies from; a development date when unset outside production. */
    PRIVACY_POLICY_EFFECTIVE_DATE: z.iso.date({ error: 'must be an ISO date (yyyy-mm-dd)' }).optional(),
    SENTRY_DSN: z.url().optional(),
    /** The operator credential of BUYASSET and ADD_TIME (header x-operator-token); unset disables them. */
    OPERATOR_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** How long a signed download link works. */
    DOWNLOAD_LINK_TTL_S: int(30, 3_600).default(300),
    /**
     * The largest hub build POST /api/admin/releases/upload takes (docs/decisions/076): 413 past it,
     * and nothing stored. 1 KiB to 8 GiB; 512 MiB by default, room for a hub installer.
     */
    RELEASE_MAX_BYTES: int(1024, 8 * 1024 ** 3).default(512 * 1024 ** 2),
    /** how often the subscription lifecycle job runs (docs/decisions/019); 0 turns it off */
    LIFECYCLE_INTERVAL_S: int(0, ONE_DAY_S).default(600),
    /**
     * how often the silence sweep tells watching pages that a robot's hub stopped reporting
     * (ROBOT_REPORT_TIMEOUT_MS passed; docs/decisions/067); 0 turns it off
     */
    ROBOT_SWEEP_INTERVAL_S: int(0, 3_600).default(30),
    /** how often the reconciliation with Stripe runs (docs/decisions/065; Stripe mode only); 0 turns it off */
    RECONCILIATION_INTERVAL_S: int(0, 7 * ONE_DAY_S).default(ONE_DAY_S),
    /** how often the retention job prunes and anonymises (docs/decisions/027); 0 turns it off */
    RETENTION_INTERVAL_S: int(0, 7 * ONE_DAY_S).default(3_600),
    /** Live events (docs/decisions/031): how long a stream ticket can be redeemed. */
    EVENT_TICKET_TTL_S: int(5, 300).default(30),
    /** Seconds between heartbeats of an event stream; each also ends streams whose session is over. */
    EVENT_HEARTBEAT_S: int(1, 300).default(15),
    /** Event streams one account may hold open on one instance (a browser tab holds one). */
    EVENT_STREAMS_PER_USER: int(1, 1_000).default(10),
    /** Stream tickets one account may ask for per 10 minutes (a reconnecting tab backs off to one per 30 s). */
    RATE_EVENT_TICKETS_PER_ACCOUNT: int(1, 1_000_000).default(200),
    /**
     * Whether the Robot Manager polls (spec/001 §7: every 60 s) while its live stream is down. false:
     * it never polls and only the stream updates it; the end-to-end test of the stream uses it.
     */
    ROBOTS_POLLING: bool.default(true),
    /** Pairing-code attempts (PAIRROBOT) per account and per address, per 15 minutes. */
    RATE_PAIR_PER_ACCOUNT: int(1, 1_000_000).default(10),
    RATE_PAIR_PER_ADDRESS: int(1, 1_000_000).default(30),
    /** Stripe's secret key: set (with STRIPE_WEBHOOK_SECRET) to sell through Stripe; unset sells through the sandbox. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, { error: 'must be a Stripe secret key (sk_test_…, sk_live_…)' })
      .optional(),
    /** The signing secret of the Stripe webhook endpoint (whsec_…). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9]+$/, { error: 'must be a Stripe webhook signing secret (whsec_…)' })
      .optional(),
    /**
     * Which payment provider sells: Stripe when its keys are set, else the sandbox. In production the
     * sandbox must be chosen on purpose (`sandbox`): without Stripe keys and without it the server
     * refuses to start (paymentsRefusal), and with it every sandbox page says so in a banner.
     */
    PAYMENTS_PROVIDER: z.optional(z.enum(['sandbox', 'stripe'])),
    /** Where the Stripe SDK sends its calls; only tests set it (a local stand-in of Stripe's API). */
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * How long one attempt at a Stripe call waits for its answer; with STRIPE_MAX_RETRIES more
     * attempts, the defaults give up on a dead or silent Stripe within about 10 s (docs/decisions/064),
     * answering 503. The same shape as S3_TIMEOUT_MS and S3_MAX_RETRIES.
     */
    STRIPE_TIMEOUT_MS: int(100, 60_000).default(3_000),
    /** Attempts after the first when a Stripe call could not connect, timed out or was answered 409/5xx. */
    STRIPE_MAX_RETRIES: int(0, 10).default(2),
    /** Seconds between SIGTERM and closing the listener, while /readyz answers 503 (docs/operations.md). */
    SHUTDOWN_DELAY_S: int(0, 120).default(0),
    /** Artifacts in an S3-compatible bucket instead of DATA_DIR/artifacts (docs/decisions/028). */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be an S3 bucket name (3-63 of a-z 0-9 . -)' })
      .optional(),
    /** The S3 API's address for a service other than AWS (MinIO, R2, ...); AWS's own when unset. */
    S3_ENDPOINT: httpUrl.optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Address the bucket in the path (endpoint/bucket/key), as most S3-compatible services need. */
    S3_FORCE_PATH_STYLE: bool.default(false),
    /**
     * The S3 API's address as customers' browsers reach it, when it is not S3_ENDPOINT's (an internal
     * name such as http://minio:9000): presigned download URLs are signed for this host, since SigV4
     * signs the host and a URL rewritten after signing no longer verifies (docs/decisions/059).
     */
    S3_PUBLIC_ENDPOINT: httpUrl.optional(),
    /**
     * How long one attempt at an S3 call waits to connect, and then without a byte moving; with
     * S3_MAX_RETRIES more attempts, the defaults give up on a dead or silent service within about
     * 10 s (docs/decisions/059). The same shape as STRIPE_TIMEOUT_MS and STRIPE_MAX_RETRIES.
     */
    S3_TIMEOUT_MS: int(100, 60_000).default(3_000),
    /** Attempts after the first when an S3 call could not connect, timed out or was answered 5xx. */
    S3_MAX_RETRIES: int(0, 10).default(2),
    /**
     * The WebAuthn relying party of passkeys (docs/decisions/032): a domain, PUBLIC_URL's host by
     * default (localhost when PUBLIC_URL is a loopback address: WebAuthn takes no IP address).
     */
    WEBAUTHN_RP_ID: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, {
        error: 'must be a domain name (e.g. portal.acme.co.uk), not an address or a URL',
      })
      .refine((host) => isIP(host) === 0, {
        error: 'must be a domain name (e.g. portal.acme.co.uk), not an address or a URL',
      })
      .optional(),
    /** The name the browser shows for the relying party when a passkey is made. */
    WEBAUTHN_RP_NAME: z.string().trim().min(1).max(64).default(PRODUCT_NAME),
    /** Comma-separated origins a passkey ceremony may come from; PUBLIC_URL's by default (and http://localhost:PORT on loopback). */
    WEBAUTHN_ORIGINS: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean),
      )
      .optional(),
    /** How long a passkey challenge (adding one, or signing in) can be answered. */
    WEBAUTHN_CHALLENGE_TTL_S: int(30, 3_600).default(300),
    /**
     * /metrics (docs/decisions/060): the bearer token a scraper sends. Set alone, /metrics is served on
     * PORT behind it; unset and without METRICS_PORT, there is no /metrics.
     */
    METRICS_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** A listener of its own for /metrics, on METRICS_HOST; PORT then serves none. */
    METRICS_PORT: int(1, 65_535).optional(),
    /** The address METRICS_PORT listens on: loopback unless told; another needs METRICS_TOKEN. */
    METRICS_HOST: z.string().trim().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    // Half a Stripe configuration would take payments whose webhooks nobody can verify.
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET))
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'],
        message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or neither (the sandbox)',
      });
    if (env.PAYMENTS_PROVIDER === 'sandbox' && env.STRIPE_SECRET_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_PROVIDER'],
        message: 'is sandbox but STRIPE_SECRET_KEY is set: unset one of them',
      });
    if (env.PAYMENTS_PROVIDER === 'stripe' && !env.STRIPE_SECRET_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_PROVIDER'],
        message: 'is stripe but STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set',
      });
    s3Issues(env, ctx);
    if (env.TRUST_FORWARDED_HOST && env.TRUST_PROXY === false)
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_FORWARDED_HOST'],
        message: 'is true but TRUST_PROXY is not set: X-Forwarded-Host is read only from the proxy TRUST_PROXY names',
      });
    if (env.JWT_SECRET_PREVIOUS && env.JWT_SECRET_PREVIOUS === env.JWT_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET_PREVIOUS'],
        message: 'is JWT_SECRET itself; it names the secret before a rotation (or unset it)',
      });
    metricsIssues(env, ctx);
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
    if (env.NODE_ENV === 'production') productionAddressIssues(env, ctx);
  });

/** The S3 variables make sense only with a bucket, and the keys come in pairs. */
function s3Issues(env: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (!env.S3_BUCKET)
    for (const key of ['S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])
      if (env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is set but S3_BUCKET is not' });
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    ctx.addIssue({
      code: 'custom',
      path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
      message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK finds credentials)',
    });
}

/** Where METRICS_PORT listens when METRICS_HOST is unset. */
export const METRICS_DEFAULT_HOST = '127.0.0.1';

const isLoopbackHost = (host: string) => /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/i.test(host);

/** The metrics listener is a port of its own, reachable beyond the host only behind METRICS_TOKEN. */
function metricsIssues(
  env: Pick<Env, 'PORT' | 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_TOKEN'>,
  ctx: z.RefinementCtx,
): void {
  if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined)
    ctx.addIssue({ code: 'custom', path: ['METRICS_HOST'], message: 'is set but METRICS_PORT is not' });
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'is PORT; give /metrics a port of its own' });
  if (env.METRICS_PORT !== undefined && !env.METRICS_TOKEN && !isLoopbackHost(env.METRICS_HOST ?? METRICS_DEFAULT_HOST))
    ctx.addIssue({
      code: 'custom',
      path: ['METRICS_HOST'],
      message: `${env.METRICS_HOST} is not a loopback address: set METRICS_TOKEN too, so only your scraper reads /metrics`,
    });
}

type AddressVariables = Record<'DOCS_URL' | 'TUTORIALS_URL' | 'SUPPORT_URL' | 'PRIVACY_CONTACT_EMAIL', string> & {
  PRIVACY_POLICY_EFFECTIVE_DATE?: string | undefined;
};

/** A production portal must not send customers to the development placeholders: one issue per variable. */
function productionAddressIssues(env: AddressVariables, ctx: z.RefinementCtx): void {
  for (const key of ['DOCS_URL', 'TUTORIALS_URL', 'SUPPORT_URL', 'PRIVACY_CONTACT_EMAIL'] as const)
    if (isPlaceholderAddress(env[key]))
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `is a placeholder (${env[key]}); set the deployment's own address when NODE_ENV=production`,
      });
  if (!env.PRIVACY_POLICY_EFFECTIVE_DATE)
    ctx.addIssue({
      code: 'custom',
      path: ['PRIVACY_POLICY_EFFECTIVE_DATE'],
      message: 'is required when NODE_ENV=production',
    });
}

export type Env = z.infer<typeof envSchema>;

/** The relying party of passkeys: undefined when no domain can be had (PUBLIC_URL is a non-loopback address and WEBAUTHN_RP_ID is unset). */
export interface WebAuthnSettings {
  rpId: string | undefined;
  origins: string[];
}

/**
 * WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS with their defaults, and what is wrong with them: an origin must
 * be a bare http(s) origin (http only on localhost, as browsers require) whose host is the RP id or
 * one of its subdomains.
 */
export function webauthnSettings(
  env: Pick<Env, 'WEBAUTHN_RP_ID' | 'WEBAUTHN_ORIGINS'>,
  publicUrl: string,
): { settings: WebAuthnSettings; issues: string[] } {
  const url = new URL(publicUrl);
  const host = url.hostname.toLowerCase();
  const loopback = LOOPBACK_NAMES.includes(host) || host === '[::1]';
  const localhostOrigin = `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`;
  const rpId = env.WEBAUTHN_RP_ID ?? (loopback ? 'localhost' : isIP(host) ? undefined : host);
  const defaults = loopback ? [localhostOrigin] : isIP(host) ? [] : [url.origin];
  // Without either variable a deployment that cannot have passkeys (a plain-http PUBLIC_URL) still
  // starts, without them; a variable someone set is checked, and a wrong one stops the start.
  const explicit = Boolean(env.WEBAUTHN_ORIGINS || env.WEBAUTHN_RP_ID);
  const origins = env.WEBAUTHN_ORIGINS ?? defaults;
  const issues: string[] = [];
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      issues.push(`  WEBAUTHN_ORIGINS: ${origin} is not a URL`);
      continue;
    }
    if (parsed.origin !== origin.replace(/\/$/, ''))
      issues.push(`  WEBAUTHN_ORIGINS: ${origin} must be an origin alone (scheme, host and port; no path)`);
    else if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && parsed.hostname === 'localhost'))
      issues.push(`  WEBAUTHN_ORIGINS: ${origin} must be https:// (http:// only for localhost)`);
    else if (rpId && parsed.hostname !== rpId && !parsed.hostname.endsWith(`.${rpId}`))
      issues.push(`  WEBAUTHN_ORIGINS: ${origin} is not on WEBAUTHN_RP_ID ${rpId} or one of its subdomains`);
  }
  if (env.WEBAUTHN_ORIGINS && !rpId)
    issues.push('  WEBAUTHN_RP_ID: is required with WEBAUTHN_ORIGINS when PUBLIC_URL is an IP address');
  const clean = origins.map((o) => o.replace(/\/$/, ''));
  if (!explicit) {
    const usable = issues.length === 0 && clean.length > 0;
    return { settings: { rpId: usable ? rpId : undefined, origins: usable ? clean : [] }, issues: [] };
  }
  return { settings: { rpId, origins: clean }, issues };
}

export interface Config
  extends Omit<
    Env,
    'PUBLIC_URL' | 'JWT_SECRET' | 'SEED_DEMO' | 'PRIVACY_POLICY_EFFECTIVE_DATE' | 'ALLOWED_HOSTS' | 'HASH_CONCURRENCY'
  > {
  PUBLIC_URL: string;
  /** The hosts served as themselves: ALLOWED_HOSTS, or by default PUBLIC_URL's (see defaultHosts). */
  ALLOWED_HOSTS: string[];
  /** The hosts answered only with PUBLIC_URL's address (a redirect, or an error naming it); none when ALLOWED_HOSTS is set. */
  hostAliases: string[];
  HASH_CONCURRENCY: number;
  PRIVACY_POLICY_EFFECTIVE_DATE: string;
  JWT_SECRET: string;
  SEED_DEMO: boolean;
  dataDir: string;
  /** passkeys' relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS with their defaults) */
  webauthn: WebAuthnSettings;
}

export class ConfigError extends Error {}

/** Reads and checks the environment; a bad value fails the start with one line per variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const webauthn = webauthnSettings(env, publicUrl);
  if (webauthn.issues.length) throw new ConfigError(`Invalid configuration:\n${webauthn.issues.join('\n')}`);
  const hosts = env.ALLOWED_HOSTS
    ? { served: env.ALLOWED_HOSTS, aliases: [] }
    : defaultHosts(publicUrl, webauthn.settings.origins);
  return {
    webauthn: webauthn.settings,
    ...env,
    dataDir,
    PUBLIC_URL: publicUrl,
    ALLOWED_HOSTS: hosts.served,
    hostAliases: hosts.aliases,
    JWT_SECRET: env.JWT_SECRET ?? localSecret(dataDir),
    SEED_DEMO: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
    HASH_CONCURRENCY: env.HASH_CONCURRENCY ?? defaultHashConcurrency(),
    PRIVACY_POLICY_EFFECTIVE_DATE:
      env.PRIVACY_POLICY_EFFECTIVE_DATE ?? DEVELOPMENT_PORTAL_CONFIG.privacyPolicyEffectiveDate,
  };
}

/**
 * Why the server must not start with this configuration's payments, in one line, or undefined: in
 * production the sandbox (test card 4242 grants real licences) sells only when PAYMENTS_PROVIDER=sandbox
 * chose it on purpose (issue 31, finding 7). The server prints the line and exits 1.
 */
export function paymentsRefusal(
  config: Pick<Config, 'NODE_ENV' | 'STRIPE_SECRET_KEY' | 'PAYMENTS_PROVIDER'>,
): string | undefined {
  if (config.NODE_ENV !== 'production' || config.STRIPE_SECRET_KEY || config.PAYMENTS_PROVIDER === 'sandbox')
    return undefined;
  return 'NODE_ENV=production with no Stripe keys would sell on the sandbox: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS_PROVIDER=sandbox to run the sandbox on purpose';
}

/** The sandbox sells in production, chosen on purpose: its pages say so in a banner. */
export const sandboxInProduction = (config: Pick<Config, 'NODE_ENV' | 'STRIPE_SECRET_KEY'>) =>
  config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY;

/** loadConfig for a program's start: a bad environment prints its lines and exits with status 2. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/** Outside production a secret is made once and kept in the data folder, so restarts keep sessions. */
function localSecret(dataDir: string): string {
  const file = resolve(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
