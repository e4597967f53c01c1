import { PORTAL_CONFIG_ELEMENT_ID, type PortalConfig, portalConfigJson } from '@portal/contract';
import type { Config } from '../config.ts';

/** The web app's run-time configuration (docs/operations.md#the-web-apps-addresses), from the server's. */
export function portalConfigOf(config: Config): PortalConfig {
  return {
    docsUrl: config.DOCS_URL,
    tutorialsUrl: config.TUTORIALS_URL,
    supportUrl: config.SUPPORT_URL,
    privacyEmail: config.PRIVACY_CONTACT_EMAIL,
    privacyPolicyEffectiveDate: config.PRIVACY_POLICY_EFFECTIVE_DATE,
    robotsPolling: config.ROBOTS_POLLING,
  };
}

/**
 * index.html with the configuration as a JSON script element at the end of <head>, before the app's
 * module scripts run. A JSON script is data, not code, so the CSP's script-src 'self' allows it.
 */
export function injectPortalConfig(html: string, config: PortalConfig): string {
  const element = `<script type="application/json" id="${PORTAL_CONFIG_ELEMENT_ID}">${portalConfigJson(config)}</script>`;
  const head = html.search(/<\/head>/i);
  if (head < 0) throw new Error('index.html has no </head> to carry the portal configuration');
  return `${html.slice(0, head)}${element}\n${html.slice(head)}`;
}
