import { z } from 'zod';

/**
 * The deployment's addresses the web app shows (docs, tutorials, support, privacy contact) and the
 * privacy policy's effective date. The server writes them into the index.html it serves, as a JSON
 * script element with this id, so one build of the web app fits any deployment.
 */
export const PORTAL_CONFIG_ELEMENT_ID = 'portal-config';

/** The support address may be a help centre (https) or a mailbox (mailto). */
const supportAddress = z.url({ protocol: /^(https?|mailto)$/, error: 'must be an http(s) or mailto: URL' });

export const portalConfigSchema = z.object({
  docsUrl: z.url({ protocol: /^https?$/ }),
  tutorialsUrl: z.url({ protocol: /^https?$/ }),
  supportUrl: supportAddress,
  privacyEmail: z.email(),
  /** ISO date (yyyy-mm-dd) from which the privacy policy applies. */
  privacyPolicyEffectiveDate: z.iso.date(),
});

export type PortalConfig = z.infer<typeof portalConfigSchema>;

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
