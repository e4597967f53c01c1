import * as z from 'zod/mini';
import { epochMs, epochSeconds, jwt, normalisedEmail } from './common.ts';
import { OverrideKind, SUBSCRIPTION_STATUSES, TIERS } from './constants.ts';
import { action, response, service } from './define.ts';

/**
 * The payment service of spec/001 §7 (/api/stripe) and the commerce entities of §3.
 * Money is an integer in minor units (pence, cents); durations are seconds.
 *
 * Request bodies keep the spec's `token` (and `refresh_token`) fields, but the Bearer header is what
 * the server checks; a body `email` that is not the signed-in user's is refused.
 * In responses, an object that only exists on success is optional and a list defaults to [].
 */

const bodyToken = z.optional(jwt);
/** The spec lists a refresh token in some payment requests; the server never reads it and the portal omits it. */
const bodyRefreshToken = z.optional(z.string().check(z.maxLength(4096)));
const stripeId = z.string().check(z.minLength(1), z.maxLength(255));
const returnUrl = z.url({ protocol: /^https?$/, error: 'Invalid URL' }).check(z.maxLength(2048));

/** Upper bound of one cart line's quantity; a sanity limit, not a business rule of the spec. */
export const MAX_LINE_QUANTITY = 999;
/** Upper bound of lines in one checkout. */
export const MAX_CHECKOUT_LINES = 50;

// ---- prices and products -------------------------------------------------------------------

export const Currency = z.enum(['gbp', 'usd']);
export type Currency = z.infer<typeof Currency>;

export const PriceInterval = z.enum(['day', 'week', 'month', 'year']);
export type PriceInterval = z.infer<typeof PriceInterval>;

export const PriceType = z.enum(['one_time', 'recurring']);
export type PriceType = z.infer<typeof PriceType>;

export const minorUnits = z.int().check(z.minimum(0));

export const paymentPrice = z.object({
  id: z.string(),
  currency: Currency,
  /** minor units */
  unit_amount: minorUnits,
  recurring: z.nullish(z.object({ interval: PriceInterval, interval_count: z.int().check(z.minimum(1)) })),
  type: PriceType,
});
export type PaymentPrice = z.infer<typeof paymentPrice>;

/** BOW_SORTING values: what kind of product it is. */
export const ProductSorting = { Subscription: 'subscription', Driver: 'driver' } as const;
/** BOW_PRICING values: `onetime` marks a dial-time package. */
export const ProductPricing = { OneTime: 'onetime' } as const;

/** Product metadata. Payment-provider metadata values are always strings; other keys pass through. */
export const productMetadata = z.catchall(
  z.object({
    /** "subscription" or "driver" */
    BOW_SORTING: z.optional(z.string()),
    /** "onetime" marks time packages */
    BOW_PRICING: z.optional(z.string()),
    /** links a driver product to the robot id */
    BOW_UUID: z.optional(z.string()),
    /** semicolon-separated plan features */
    BOW_FEATURES: z.optional(z.string()),
    manufacturer: z.optional(z.string()),
    /** comma-separated */
    robotType: z.optional(z.string()),
    /** comma-separated */
    features: z.optional(z.string()),
  }),
  z.string(),
);
export type ProductMetadata = z.infer<typeof productMetadata>;

export const paymentProduct = z.object({
  id: z.string(),
  name: z.string(),
  description: z._default(z.string(), ''),
  quantity: z.optional(z.int().check(z.minimum(0))),
  metadata: z._default(productMetadata, {}),
  prices: z._default(z.array(paymentPrice), []),
  selected_price_id: z.optional(z.string()),
});
export type PaymentProduct = z.infer<typeof paymentProduct>;

/** A line of the browser-side cart (persisted locally). */
export const cartItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z._default(z.string(), ''),
  prices: z._default(z.array(paymentPrice), []),
  selected_price_id: z.string(),
  /** minor units, for display only: the server prices checkout lines itself */
  selected_price_unit_amount: minorUnits,
  quantity: z.int().check(z.minimum(1), z.maximum(MAX_LINE_QUANTITY)),
  /** a plan (issue 31): sold one at a time, so its quantity stays 1 and a cart holds one */
  plan: z.optional(z.boolean()),
});
export type CartItem = z.infer<typeof cartItem>;

/** What the client sends per checkout line: no amounts, the server prices it from the catalogue. */
export const checkoutLine = z.object({
  /** the product id */
  id: stripeId,
  selected_price_id: stripeId,
  quantity: z
    .number()
    .check(
      z.int({ error: 'Quantity must be a whole number' }),
      z.minimum(1, { error: 'Quantity must be at least 1' }),
      z.maximum(MAX_LINE_QUANTITY, { error: `Quantity must be at most ${MAX_LINE_QUANTITY}` }),
    ),
});
export type CheckoutLine = z.infer<typeof checkoutLine>;

/** The checkout session entity of spec/001 §3, as the server records it. */
export const checkoutSession = z.object({
  customer_id: z.optional(z.string()),
  products: z._default(z.array(checkoutLine), []),
  useElements: z.optional(z.boolean()),
  success_url: z.optional(z.string()),
  cancel_url: z.optional(z.string()),
  session_id: z.optional(z.string()),
  session_url: z.optional(z.string()),
  payment_intent_id: z.optional(z.string()),
  /** minor units */
  amount: z.optional(minorUnits),
  currency: z.optional(Currency),
});
export type CheckoutSession = z.infer<typeof checkoutSession>;

// ---- subscriptions ---------------------------------------------------------------------------

export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const subscriptionTier = z.enum(TIERS);

/** free trial 0, override 1, other 2, none 99 */
export const overrideKind = z.literal([
  OverrideKind.FreeTrial,
  OverrideKind.BowOverride,
  OverrideKind.Other,
  OverrideKind.None,
]);
export type OverrideKindValue = z.infer<typeof overrideKind>;

export const subscriptionBase = z.object({
  uuid: z.string(),
  type: z.string(),
  /** the payment provider's subscription id ('' for a gifted subscription) */
  stripe_id: z._default(z.string(), ''),
  user_id: z.string(),
  user_email: z.string(),
  asset_id: z._default(z.string(), ''),
  license_id: z._default(z.string(), ''),
  /** seconds */
  duration: z.int().check(z.minimum(0)),
  created_at: epochMs,
  last_updated_at: epochMs,
  status: z._default(subscriptionStatus, 'pending_assignment'),
  stripe_customer_id: z._default(z.string(), ''),
  /** Gifted subscriptions name their kind (badge FreeTrial, BowOverride, Other); 99 when paid for. */
  overrideReason: z._default(overrideKind, OverrideKind.None),
  /**
   * The customer cancelled at the period's end: the status stays active (and the subscription keeps
   * working) until created_at + duration, then becomes cancelled (docs/decisions/019).
   */
  cancel_at_period_end: z._default(z.boolean(), false),
  /**
   * When a renewal's payment failed and the provider still retries (epoch ms; 0: none). The status
   * stays active and the subscription keeps working; the dashboard asks for a new card (issue 31).
   */
  payment_failed_at: z._default(epochMs, 0),
});
export type SubscriptionBase = z.infer<typeof subscriptionBase>;

export const robotDriverSubscription = z.extend(subscriptionBase, {
  robot_license_id: z._default(z.string(), ''),
  /** whether a subscription credit paid for this driver */
  credit_used: z._default(z.boolean(), false),
  credit_entry_uuid: z._default(z.string(), ''),
});
export type RobotDriverSubscription = z.infer<typeof robotDriverSubscription>;

export const userSubscription = z.extend(subscriptionBase, {
  subscription_tier: subscriptionTier,
  credits: z._default(z.int().check(z.minimum(0)), 0),
});
export type UserSubscription = z.infer<typeof userSubscription>;

/** A subscription as the payment provider holds it; times in epoch seconds. */
export const paymentProviderSubscription = z.object({
  subscription_id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  /** seconds */
  duration: z.int().check(z.minimum(0)),
  starts_at: epochSeconds,
  ends_at: epochSeconds,
  /** the portal's status word of the subscription (active, cancelled, expired, inactive, pending_assignment) */
  status: z.string(),
  /** the customer cancelled at the period's end (ends_at); it works until then */
  cancel_at_period_end: z._default(z.boolean(), false),
  payment_method_id: z._default(z.string(), ''),
  stripe_customer_id: z._default(z.string(), ''),
  user_subscriptions: z._default(z.array(userSubscription), []),
  robot_driver_subscriptions: z._default(z.array(robotDriverSubscription), []),
});
export type PaymentProviderSubscription = z.infer<typeof paymentProviderSubscription>;

export const activeSubscriptionResponse = response({
  user_subscriptions: z._default(z.array(userSubscription), []),
  overrideReason: z._default(overrideKind, OverrideKind.None),
});
export type ActiveSubscriptionResponse = z.infer<typeof activeSubscriptionResponse>;

/** A checkout session as the success page shows it. */
export const purchase = z.object({
  session_id: z.string(),
  /** paid: fulfilled (or being fulfilled); open: not paid yet; expired: abandoned, nothing granted */
  status: z.enum(['paid', 'open', 'expired']),
  /** minor units */
  amount: minorUnits,
  currency: Currency,
  lines: z.array(
    z.object({
      product_id: z.string(),
      name: z.string(),
      quantity: z.int().check(z.minimum(1)),
      /** minor units */
      unit_amount: minorUnits,
      /** a recurring line's interval ("/year", "/month" on the receipt); absent for a one-time price */
      interval: z.optional(PriceInterval),
    }),
  ),
  /** the order reference, from the payment row (the receipt mail carries the same); '' until paid */
  reference: z._default(z.string(), ''),
  /** when it was paid (epoch ms); absent until paid */
  paid_at: z.optional(epochMs),
  /** for each robot driver bought, the pairing code of its license (empty once paired) */
  pairings: z._default(z.array(z.object({ robot_model: z.string(), pair_code: z.string() })), []),
});
export type Purchase = z.infer<typeof purchase>;

// ---- the service -----------------------------------------------------------------------------

// The buying path (docs/decisions/017) and the subscriptions (docs/decisions/019).
export const payment = service('payment', '/api/stripe', {
  GetActiveUserSubscription: action({
    summary: "The signed-in user's active tier subscriptions and the override kind of a gifted one.",
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, refresh_token: bodyRefreshToken }),
    response: activeSubscriptionResponse,
  }),
  GetProducts: action({
    summary: 'The catalogue: subscriptions, robot drivers and dial-time packages with their prices.',
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: z.optional(normalisedEmail) }),
    response: response({ products: z._default(z.array(paymentProduct), []) }),
  }),
  GetCustomerID: action({
    summary: "The signed-in user's payment-provider customer id, created on first use.",
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, refresh_token: bodyRefreshToken }),
    response: response({ customer_id: z.optional(z.string()) }),
  }),
  ListSubscriptions: action({
    summary: "The signed-in user's tier and robot-driver subscriptions, every status.",
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, refresh_token: bodyRefreshToken }),
    response: response({
      user_subscriptions: z._default(z.array(userSubscription), []),
      robot_driver_subscriptions: z._default(z.array(robotDriverSubscription), []),
    }),
  }),
  GetSubscription: action({
    summary:
      "One of the signed-in user's payment-provider subscriptions (`subscription_id` is a row's stripe_id, or a row's uuid when it has none), with its plan and robot-driver items.",
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, subscription_id: stripeId }),
    response: response({ subscription: z.optional(paymentProviderSubscription) }),
  }),
  HandlePurchase: action({
    summary:
      'Create a checkout session for the cart lines. The server prices each line from the catalogue; the request carries no amounts.',
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      /** The spec sends it; the server uses the signed-in user's own customer and refuses another. */
      customer_id: z.optional(z.string().check(z.maxLength(255))),
      session: z.object({
        products: z
          .array(checkoutLine)
          .check(
            z.minLength(1, { error: 'The cart is empty' }),
            z.maxLength(MAX_CHECKOUT_LINES, { error: `A checkout holds at most ${MAX_CHECKOUT_LINES} lines` }),
          ),
        success_url: returnUrl,
        cancel_url: returnUrl,
      }),
      /** A hint from the Buy More Time flow; the server decides from the catalogue. */
      isPurchasingDialTime: z.optional(z.boolean()),
    }),
    response: response({
      session: z.object({
        session_id: z.string(),
        /** where to send the browser: the provider's hosted checkout */
        session_url: z.string(),
        /** the server's total of the lines, minor units */
        amount: minorUnits,
        currency: Currency,
      }),
    }),
  }),
  ConfirmPurchase: action({
    summary:
      'Called by the success page with the session id the provider appended to success_url: fulfils a paid session now if the webhook has not yet (once, whichever comes first) and answers what was bought.',
    auth: 'bearer',
    request: z.object({ token: bodyToken, email: normalisedEmail, session_id: stripeId }),
    response: response({ purchase: purchase }),
  }),
  CreateBillingPortalSession: action({
    summary:
      "Open the billing portal for the signed-in user: Stripe's in Stripe mode, the server's sandbox billing page otherwise; answers its address, which returns to return_url.",
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      return_url: returnUrl,
      /** The spec sends it; the server uses the signed-in user's own customer and refuses another. */
      customer_id: z.optional(z.string().check(z.maxLength(255))),
    }),
    response: response({ session: z.optional(z.object({ session_url: z.string() })) }),
  }),
});
