import * as z from 'zod/mini';
import type { PortalConfig } from './portal-config.ts';

/** The support address may be a help centre (https) or a mailbox (mailto). */
const supportAddress = z.url({ protocol: /^(https?|mailto)$/, error: 'must be an http(s) or mailto: URL' });

/** The rules of portal-config.ts as a schema, for the server and its tests. */
export const portalConfigSchema = z.object({
  docsUrl: z.url({ protocol: /^https?$/ }),
  tutorialsUrl: z.url({ protocol: /^https?$/ }),
  supportUrl: supportAddress,
  privacyEmail: z.email(),
  privacyPolicyEffectiveDate: z.iso.date(),
  robotsPolling: z.optional(z.boolean()),
}) satisfies z.ZodMiniType<PortalConfig>;
