import {
  DEVELOPMENT_PORTAL_CONFIG,
  PORTAL_CONFIG_ELEMENT_ID,
  type PortalConfig,
  portalConfigIssues,
} from '@portal/contract';

/**
 * The deployment's configuration as the server wrote it into index.html (docs/operations.md). Under
 * `vite dev` and in unit tests no server writes it, so outside a production build the development
 * addresses stand in. A production build without it, or with a bad value, fails at start listing
 * every bad field: a customer must never be sent to a placeholder address.
 */
export function readPortalConfig(doc: Pick<Document, 'getElementById'> | undefined, production: boolean): PortalConfig {
  const text = doc?.getElementById(PORTAL_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) {
    if (production) throw new Error(`Invalid configuration: index.html has no #${PORTAL_CONFIG_ELEMENT_ID} block`);
    return DEVELOPMENT_PORTAL_CONFIG;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`Invalid configuration: #${PORTAL_CONFIG_ELEMENT_ID} is not JSON`);
  }
  const issues = portalConfigIssues(json);
  if (issues.length > 0) {
    const lines = issues.map((i) => `  ${i.field}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return json as PortalConfig;
}

const production = import.meta.env.PROD;

/**
 * The only place the web app reads its configuration: the server's at run time, the build's below.
 * The build's prerendering (docs/decisions/038) has no page to read it from: it sees the development
 * addresses, so a prerendered page must not show any of these values.
 */
const portal = typeof document === 'undefined' ? DEVELOPMENT_PORTAL_CONFIG : readPortalConfig(document, production);

export const env = {
  production,
  ...portal,
  /** whether the Robot Manager polls while its live stream is down (the server's ROBOTS_POLLING) */
  robotsPolling: portal.robotsPolling ?? true,
  /** Gravatar-compatible avatar service; the image falls back to initials when it cannot be reached. */
  avatarBaseUrl: (import.meta.env.VITE_AVATAR_URL as string | undefined) ?? 'https://www.gravatar.com/avatar',
  sentryDsn: import.meta.env.VITE_SENTRY_DSN as string | undefined,
} as const;
