/** Business constants of spec/000 and spec/001, section 9. Durations are in the unit their name says. */

export const PRODUCT_NAME = 'Robot Portal';

// Sessions (spec/000 §4, §9)
export const ACCESS_TOKEN_EXPIRY_MARGIN_S = 30;
export const REFRESH_TOKEN_EXPIRY_MARGIN_S = 60;
export const DEFAULT_ACCESS_TOKEN_LIFETIME_S = 15 * 60;
export const DEFAULT_REFRESH_TOKEN_LIFETIME_S = 7 * 86_400;
export const ONE_DAY_S = 86_400;
export const LOGOUT_WAIT_CAP_MS = 5_000;
export const TOKEN_STORE_PAUSE_MS = 50;
export const LOGOUT_BROADCAST_REPEATS_MS = [100, 300, 500] as const;

// Toasts
export const ERROR_TOAST_MS = 5_000;
export const LOGOUT_TOAST_MS = 1_500;
export const DOWNLOAD_TOAST_MS = 16_000;

// Onboarding
export const ONBOARDING_OPEN_DELAY_MS = 1_000;
export const ONBOARDING_ACTIVITY_LOCK_MS = 5 * 60_000;
export const ONBOARDING_STEPS = 6;

// Shell
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 86_400;
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const LOGO_CLICK_DELAY_MS = 300;
export const LOGO_SPIN_CLICKS = 3;
export const LOGO_SPIN_MS = 2_000;
export const AVATAR_DEFAULT_SIZE = 64;

// Account rules (spec/000 §5, §9)
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const NAME_MIN = 3;
export const ORGANISATION_MIN = 2;
export const YEAR_BORN_MIN = 1900;
export const MINIMUM_AGE_YEARS = 6;
export const DATA_RETENTION_YEARS = 2;
export const DELETE_CONFIRMATION_TEXT = 'delete my account';
export const DEFAULT_TARGET = 'portal';
export const DATE_LOCALE = 'en-GB';

// Support requests (/dashboard/support)
export const SUPPORT_SUBJECT_MIN = 3;
export const SUPPORT_SUBJECT_MAX = 150;
export const SUPPORT_MESSAGE_MIN = 10;
export const SUPPORT_MESSAGE_MAX = 5_000;
export const SUPPORT_ROBOT_MODEL_MAX = 200;

// Error reporting
export const TRACE_SAMPLE_RATE = 0.2;

// Data queries (spec/000 §7, spec/001 §7)
export const QUERY_RETRY_BASE_MS = 1_000;
export const QUERY_RETRY_CAP_MS = 30_000;
export const QUERY_MAX_RETRIES = 3;
export const QUERY_DEFAULT_RETRIES = 1;
export const Freshness = {
  activeSubscription: { staleMs: 60_000, refetchMs: 55_000 },
  products: { staleMs: 5 * 60_000, refetchMs: 4.5 * 60_000 },
  customerId: { staleMs: 30 * 60_000 },
  userTime: { staleMs: 30_000, refetchMs: 25_000 },
  robots: { staleMs: 5 * 60_000, refetchMs: 60_000 },
  assets: { staleMs: 60_000, retries: 3 },
} as const;

// Robots, cart, subscriptions (spec/001 §9)
export const DEFAULT_CURRENCY = 'gbp';
export const LOADER_DELAY_MS = 700;
export const CHECKOUT_BUTTON_DISABLED_MS = 1_000;
export const PLAN_UPGRADE_BUSY_MS = 1_000;
export const REFRESH_COOLDOWN_MS = 3_000;
export const ADD_TO_CART_CHECK_MS = 1_000;
export const CART_WIDGET_CLOSE_LEAD_MS = 200;
export const DIAL_PANEL_OPEN_MIN_WIDTH_PX = 1024;
export const ROBOT_GRID_MAX_COLUMNS = 5;
export const CART_SCROLL_AREA_PX = 300;
export const ADD_ROBOT_PAGE_SIZE = 8;
export const FIXED_LICENSE_FEATURES = ['Support', '1 Physical Robot License'] as const;
export const ROBOT_NAME_FONT_MAX_PX = 36;
export const ROBOT_NAME_FONT_MIN_PX = 12;

export const TIERS = ['Lite Subscription', 'Standard Subscription', 'Pro Subscription'] as const;
export type TierName = (typeof TIERS)[number];
export const TIER_SHORT = ['Lite', 'Standard', 'Pro'] as const;
export type TierShort = (typeof TIER_SHORT)[number];

export const OverrideKind = { FreeTrial: 0, BowOverride: 1, Other: 2, None: 99 } as const;

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'expired', 'pending_assignment', 'inactive'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Hub sign-in hands credentials only to these hosts (RFC 8252 loopback redirect). */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'] as const;
