import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEVELOPMENT_PORTAL_CONFIG } from '@portal/contract';
import { z } from 'zod';

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
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ACCESS_TOKEN_TTL_S: int(60, 86_400).default(900),
    REFRESH_TOKEN_TTL_S: int(300, 90 * 86_400).default(7 * 86_400),
    /** A rotated refresh token still works this long, so two tabs refreshing at once both succeed. */
    REFRESH_REUSE_GRACE_S: int(0, 300).default(30),
    LOGIN_MAX_FAILURES: int(1, 1000).default(5),
    LOCKOUT_S: int(1, 86_400).default(15 * 60),
    RATE_LOGIN_PER_ADDRESS: int(1, 1_000_000).default(60),
    RATE_FORGOT_PER_ADDRESS: int(1, 1_000_000).default(20),
    RATE_FORGOT_PER_ACCOUNT: int(1, 1_000_000).default(3),
    RATE_REGISTER_PER_ADDRESS: int(1, 1_000_000).default(20),
    VERIFY_TOKEN_TTL_S: int(60, 30 * 86_400).default(2 * 86_400),
    RESET_TOKEN_TTL_S: int(60, 7 * 86_400).default(60 * 60),
    ARGON2_MEMORY_KIB: int(1024, 1_048_576).default(19_456),
    ARGON2_TIME_COST: int(1, 10).default(2),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
    MAIL_FROM: z.string().min(3).default('Robot Portal <no-reply@robot-portal.local>'),
    DEMO_EMAIL: z.email().default('demo@robot-portal.local'),
    DEMO_PASSWORD: z.string().min(8).default('Demo-Robot-2026!'),
    SEED_DEMO: bool.optional(),
    TRUST_PROXY: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST: z.string().optional(),
    // The addresses the web app links to, handed to it at run time (docs/operations.md#the-web-apps-addresses).
    DOCS_URL: httpUrl.default(DEVELOPMENT_PORTAL_CONFIG.docsUrl),
    TUTORIALS_URL: httpUrl.default(DEVELOPMENT_PORTAL_CONFIG.tutorialsUrl),
    /** The user menu's Get Support: a help centre (https://) or a mailbox (mailto:). */
    SUPPORT_URL: z
      .url({ protocol: /^(https?|mailto)$/, error: 'must be an http(s):// or mailto: URL' })
      .default(DEVELOPMENT_PORTAL_CONFIG.supportUrl),
    PRIVACY_CONTACT_EMAIL: z.email().default(DEVELOPMENT_PORTAL_CONFIG.privacyEmail),
    /** The date the privacy policy says it applies from; a development date when unset outside production. */
    PRIVACY_POLICY_EFFECTIVE_DATE: z.iso.date({ error: 'must be an ISO date (yyyy-mm-dd)' }).optional(),
    SENTRY_DSN: z.url().optional(),
    /** The operator credential of BUYASSET and ADD_TIME (header x-operator-token); unset disables them. */
    OPERATOR_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** How long a signed download link works. */
    DOWNLOAD_LINK_TTL_S: int(30, 3_600).default(300),
    /** how often the subscription lifecycle job runs (docs/decisions/019); 0 turns it off */
    LIFECYCLE_INTERVAL_S: int(0, 86_400).default(600),
    /** how often the retention job prunes and anonymises (docs/decisions/027); 0 turns it off */
    RETENTION_INTERVAL_S: int(0, 7 * 86_400).default(3_600),
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
    /** Where the Stripe SDK sends its calls; only tests set it (a local stand-in of Stripe's API). */
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  })
  .superRefine((env, ctx) => {
    // Half a Stripe configuration would take payments whose webhooks nobody can verify.
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET))
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'],
        message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or neither (the sandbox)',
      });
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
    if (env.NODE_ENV === 'production') productionAddressIssues(env, ctx);
  });

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

export interface Config extends Omit<Env, 'PUBLIC_URL' | 'JWT_SECRET' | 'SEED_DEMO' | 'PRIVACY_POLICY_EFFECTIVE_DATE'> {
  PUBLIC_URL: string;
  PRIVACY_POLICY_EFFECTIVE_DATE: string;
  JWT_SECRET: string;
  SEED_DEMO: boolean;
  dataDir: string;
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
  return {
    ...env,
    dataDir,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    JWT_SECRET: env.JWT_SECRET ?? localSecret(dataDir),
    SEED_DEMO: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
    PRIVACY_POLICY_EFFECTIVE_DATE:
      env.PRIVACY_POLICY_EFFECTIVE_DATE ?? DEVELOPMENT_PORTAL_CONFIG.privacyPolicyEffectiveDate,
  };
}

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
