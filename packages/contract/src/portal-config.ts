/**
 * The deployment's addresses the web app shows (docs, tutorials, support, privacy contact) and the
 * privacy policy's effective date. The server writes them into the index.html it serves, as a JSON
 * script element with this id, so one build of the web app fits any deployment.
 *
 * No zod here: the web app reads this at start, on every page, and the sign-in page loads no
 * schema library (docs/decisions/025). `portalConfigSchema` (portal-config-schema.ts) states the
 * same rules for the server; a table-driven test holds the two to the same answers.
 */
export const PORTAL_CONFIG_ELEMENT_ID = 'portal-config';

export interface PortalConfig {
  docsUrl: string;
  tutorialsUrl: string;
  /** a help centre (https) or a mailbox (mailto) */
  supportUrl: string;
  privacyEmail: string;
  /** ISO date (yyyy-mm-dd) from which the privacy policy applies. */
  privacyPolicyEffectiveDate: string;
  /**
   * Whether the Robot Manager polls while its live event stream is down (spec/001 §7's 60 s); the
   * server's ROBOTS_POLLING. Absent means true.
   */
  robotsPolling?: boolean;
}

/**
 * What a developer gets without configuring anything. The `.example` addresses are placeholders:
 * the server refuses to start in production while one is still in use.
 */
export const DEVELOPMENT_PORTAL_CONFIG: PortalConfig = {
  docsUrl: 'https://docs.robot-portal.example',
  tutorialsUrl: 'https://docs.robot-portal.example/tutorials',
  supportUrl: 'https://support.robot-portal.example',
  privacyEmail: 'privacy@robot-portal.example',
  privacyPolicyEffectiveDate: '2026-01-01',
};

function urlWith(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol);
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const RULES: Record<Exclude<keyof PortalConfig, 'robotsPolling'>, [check: (v: string) => boolean, message: string]> = {
  docsUrl: [(v) => urlWith(v, ['http:', 'https:']), 'must be an http(s) URL'],
  tutorialsUrl: [(v) => urlWith(v, ['http:', 'https:']), 'must be an http(s) URL'],
  supportUrl: [(v) => urlWith(v, ['http:', 'https:', 'mailto:']), 'must be an http(s) or mailto: URL'],
  privacyEmail: [(v) => EMAIL.test(v), 'must be an email address'],
  privacyPolicyEffectiveDate: [isoDate, 'must be a date (yyyy-mm-dd)'],
};

/** Every field of a configuration that breaks its rule, as `{ field, message }`; empty when it is good. */
export function portalConfigIssues(value: unknown): { field: string; message: string }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [{ field: '(config)', message: 'must be an object' }];
  const record = value as Record<string, unknown>;
  const strings = (Object.keys(RULES) as (keyof typeof RULES)[]).flatMap((field) => {
    const v = record[field];
    const [check, message] = RULES[field];
    if (typeof v !== 'string') return [{ field, message: 'must be a string' }];
    return check(v) ? [] : [{ field, message }];
  });
  const polling = record.robotsPolling;
  return polling === undefined || typeof polling === 'boolean'
    ? strings
    : [...strings, { field: 'robotsPolling', message: 'must be true or false' }];
}

/**
 * The JSON to put inside `<script type="application/json">`: `<` (and `>`, `&`, U+2028/2029) are
 * written as \u escapes so a value can never close the element or open a comment; JSON.parse reads
 * them back unchanged.
 */
export function portalConfigJson(config: PortalConfig): string {
  return JSON.stringify(config).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
