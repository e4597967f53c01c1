/**
 * Business constants of spec/000 and spec/001, section 9, that the server, the hub or the action
 * client use, usually with the web app. Screen texts, timings, toast durations and sizes live in the
 * web app. Durations are in the unit their name says.
 */

export const PRODUCT_NAME = 'Robot Portal';

// Sessions (spec/000 §4, §9)
export const ACCESS_TOKEN_EXPIRY_MARGIN_S = 30;
export const REFRESH_TOKEN_EXPIRY_MARGIN_S = 60;
export const DEFAULT_ACCESS_TOKEN_LIFETIME_S = 15 * 60;
/** one day, in the two units durations here are kept in: the only place either is written */
export const ONE_DAY_S = 86_400;
export const ONE_DAY_MS = ONE_DAY_S * 1000;
export const DEFAULT_REFRESH_TOKEN_LIFETIME_S = 7 * ONE_DAY_S;
/** how long a sign-out waits for the server to revoke the session (the web app and the hub) */
export const LOGOUT_WAIT_CAP_MS = 5_000;

// Account rules (spec/000 §5, §9)
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const NAME_MIN = 3;
export const ORGANISATION_MIN = 2;
export const YEAR_BORN_MIN = 1900;
export const MINIMUM_AGE_YEARS = 6;
/** a sign-in without a target is for the portal (spec/000 §2) */
export const DEFAULT_TARGET = 'portal';

// Account security centre (docs/decisions/032)
/** the longest name a passkey may have */
export const PASSKEY_NAME_MAX = 64;

/** The privacy policy's retention: data is kept this long, then anonymised (spec/000 §1, §9; docs/decisions/027). */
export const DATA_RETENTION_YEARS = 2;

// Support requests (/dashboard/support)
export const SUPPORT_SUBJECT_MIN = 3;
export const SUPPORT_SUBJECT_MAX = 150;
export const SUPPORT_MESSAGE_MIN = 10;
export const SUPPORT_MESSAGE_MAX = 5_000;
export const SUPPORT_ROBOT_MODEL_MAX = 200;

// Error reporting
export const TRACE_SAMPLE_RATE = 0.2;

// Robots, cart, subscriptions (spec/001 §9)
/** prices, carts and checkout are in GBP unless a price says otherwise */
export const DEFAULT_CURRENCY = 'gbp';

export const TIERS = ['Lite Subscription', 'Standard Subscription', 'Pro Subscription'] as const;
export type TierName = (typeof TIERS)[number];
export const TIER_SHORT = ['Lite', 'Standard', 'Pro'] as const;
export type TierShort = (typeof TIER_SHORT)[number];

export const OverrideKind = { FreeTrial: 0, BowOverride: 1, Other: 2, None: 99 } as const;

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'expired', 'pending_assignment', 'inactive'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The topics of the support form (support.ts); zod-free here, as the support route's address reads them. */
export const SUPPORT_CATEGORIES = ['general', 'billing', 'robot_not_listed', 'technical'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

export const SUPPORT_CATEGORY_LABELS: Record<SupportCategory, string> = {
  general: 'General question',
  billing: 'Billing and subscriptions',
  robot_not_listed: 'My robot is not listed',
  technical: 'Technical problem',
};
