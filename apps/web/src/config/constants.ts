import { ONE_DAY_S } from '@portal/contract';
/**
 * The web app's own constants: screen timings, toast durations and sizes of spec/000 §9 and
 * spec/001 §9 that only the browser uses. Rules and limits both sides use stay in the contract.
 * Durations are in the unit their name says.
 */

// Session, as the browser runs it (spec/000 §4 Login and Logout)
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
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * ONE_DAY_S;
export const MOBILE_BREAKPOINT_PX = 768;
/**
 * On a phone, toasts sit at the bottom this far up: above the cart widget at the foot of the
 * sidebar sheet (its button and the footer's padding), so a toast never covers the cart.
 */
export const TOAST_MOBILE_BOTTOM_OFFSET_PX = 96;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const LOGO_CLICK_DELAY_MS = 300;
export const LOGO_SPIN_CLICKS = 3;
export const LOGO_SPIN_MS = 2_000;
export const AVATAR_DEFAULT_SIZE = 64;

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

// Live robot status (issue 15, docs/decisions/031): the stream reconnects after 1 s, doubling to 30 s
export const LIVE_RECONNECT_BASE_MS = 1_000;
export const LIVE_RECONNECT_CAP_MS = 30_000;

// Robots, cart, subscriptions screens (spec/001 §9)
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
export const ROBOT_NAME_FONT_MAX_PX = 36;
export const ROBOT_NAME_FONT_MIN_PX = 12;
