import { LICENSE_AGREEMENT_VERSION, ONE_DAY_S } from '@portal/contract';

/**
 * One well-formed request per mounted action (the contract accepts it), with the caller's names
 * filled in. The fuzz test plants hostile text in one field of these at a time; the access matrix
 * aims them at another user's objects. A new action needs an entry: both tests fail without one.
 */
export interface Names {
  email: string;
  userId: string;
  token: string;
  refreshToken: string;
  robotId: string;
  licenseId: string;
  pairCode: string;
  subscriptionId: string;
  sessionId: string;
  paymentId: string;
  customerId: string;
  recipient: string;
  /** a sign-in session (security centre), not a checkout session */
  signInId: string;
  passkeyId: string;
  /** a support request's ticket id (SR-XXXX-XXXX) */
  ticketId: string;
}

const URL = 'http://localhost:3999/dashboard/cart/success';
/** A well-formed WebAuthn credential id (base64url) that no authenticator made. */
const CREDENTIAL_ID = 'Y3JlZGVudGlhbC1vZi1ub2JvZHk';
/** A well-formed staff enrolment token that no invitation made. */
const ENROLMENT_TOKEN = 'bm8taW52aXRhdGlvbi1tYWRlLXRoaXMtdG9rZW4tZXZlcg';
const artifact = {
  path: 'robot-hub-1.4.0-windows-amd64.zip',
  asset_id: 'robot-hub',
  OS: 'windows',
  Arch: 'amd64',
  version_info: {
    sdk: { major: 1, minor: 4, patch: 0, revision: 0 },
    client: { major: 1, minor: 4, patch: 0, revision: 0 },
    core: { major: 1, minor: 4, patch: 0, revision: 0 },
    messaging: { major: 1, minor: 4, patch: 0, revision: 0 },
  },
  language: 'en',
  timestamp: 0,
  checksum: '',
};

export const VALID_BODIES: Record<string, (n: Names) => Record<string, unknown>> = {
  '/api/useraction login': (n) => ({ user: { email: n.email, password: 'Robot-Pass-42!' } }),
  '/api/useraction logout': (n) => ({ token_pair: { refresh_token: n.refreshToken }, user: { email: n.email } }),
  '/api/useraction get-self': (n) => ({ token_pair: { refresh_token: n.refreshToken } }),
  '/api/useraction UserRegister': (n) => ({
    user: {
      email: n.email,
      password: 'Another-Robot-Pass-7!',
      name: 'Fuzz Person',
      year_born: 1990,
      country: 'United Kingdom',
      company: 'Acme Robots',
      profession: 'Engineer',
      termsagreed: true,
    },
  }),
  '/api/useraction UserVerifyEmail': () => ({ token: 'a-verification-token', tokentype: 3 }),
  '/api/useraction UserCheckToken': () => ({ token: 'a-reset-token', tokentype: 2 }),
  '/api/useraction UserForgotPassword': (n) => ({ user: { email: n.email } }),
  '/api/useraction UserChangePassword': (n) => ({
    user: { email: n.email },
    token: 'a-reset-token',
    tokentype: 2,
    password: 'Another-Robot-Pass-7!',
  }),
  '/api/useraction UserUpdatePassword': (n) => ({
    token: n.token,
    tokentype: 1,
    user: { email: n.email, password: 'Robot-Pass-42!' },
    password: 'Another-Robot-Pass-7!',
  }),
  '/api/useraction UserUpdate': (n) => ({
    token: n.token,
    user: {
      email: n.email,
      name: 'Fuzz Person',
      year_born: -1,
      country: 'United Kingdom',
      company: 'Acme Robots',
      profession: 'Engineer',
    },
  }),
  '/api/useraction UserDelete': (n) => ({ token: n.token, user: { email: n.email, password: 'Robot-Pass-42!' } }),
  '/api/auth refresh-access-token': (n) => ({ tokenPair: { refresh_token: n.refreshToken } }),
  '/api/auth revoke-token-pair': (n) => ({ tokenPair: { refresh_token: n.refreshToken } }),
  '/api/stripe GetActiveUserSubscription': (n) => ({ email: n.email }),
  '/api/stripe GetProducts': (n) => ({ email: n.email }),
  '/api/stripe GetCustomerID': (n) => ({ email: n.email }),
  '/api/stripe ListSubscriptions': (n) => ({ email: n.email }),
  '/api/stripe GetSubscription': (n) => ({ email: n.email, subscription_id: n.subscriptionId }),
  '/api/stripe HandlePurchase': (n) => ({
    email: n.email,
    customer_id: n.customerId,
    session: {
      products: [{ id: 'prod_time_60', selected_price_id: 'price_time_60_lite_gbp', quantity: 1 }],
      success_url: URL,
      cancel_url: URL,
    },
  }),
  '/api/stripe ConfirmPurchase': (n) => ({ email: n.email, session_id: n.sessionId }),
  '/api/stripe CreateBillingPortalSession': (n) => ({ email: n.email, return_url: URL, customer_id: n.customerId }),
  '/api/dial_manager CHECK_REMAINING_TIME': (n) => ({ email: n.email, user_id: n.userId }),
  '/api/dial_manager GET_USAGE_HISTORY': (n) => ({ email: n.email, days: 30 }),
  '/api/dial_manager UPDATE_TIME': (n) => ({
    email: n.email,
    robot_id: n.robotId,
    minutes: 1,
    idempotency_key: 'fuzz-dial',
  }),
  '/api/dial_manager ADD_TIME': (n) => ({ email: n.email, minutes: 10, reason: 'goodwill' }),
  '/api/dial_manager GET_SLOTS': (n) => ({ user_email: n.email, user_id: n.userId }),
  '/api/dial_manager UPDATE_SLOTS': (n) => ({
    user_email: n.email,
    user_id: n.userId,
    user_slots: [{ slot_id: 0, license_id: '', robot_id: 'driver-pepper', updated_on: 0 }],
  }),
  '/api/dial_manager CLEAR_SLOTS': (n) => ({ user_email: n.email, user_id: n.userId }),
  '/api/license GetLicences': (n) => ({ email: n.email }),
  '/api/license GetLicenses': (n) => ({ email: n.email }),
  '/api/license BUYASSET': (n) => ({ email: n.email, asset_id: 'driver-pepper' }),
  '/api/license SHARELICENSE': (n) => ({
    email: n.email,
    license_id: n.licenseId,
    recipient_email: n.recipient,
    duration: ONE_DAY_S,
  }),
  '/api/license STOPSHAREDLICENSE': (n) => ({ email: n.email, license_id: n.licenseId, recipient_email: n.recipient }),
  '/api/license GETSHAREDLICENSES': (n) => ({ email: n.email }),
  '/api/license PAIRROBOT': (n) => ({ email: n.email, pair_code: n.pairCode, robot_id: n.robotId }),
  '/api/license REGENERATEPAIRCODE': (n) => ({ email: n.email, license_id: n.licenseId }),
  '/api/license UNPAIR': (n) => ({ email: n.email, license_id: n.licenseId }),
  '/api/events OpenEventStream': (n) => ({ email: n.email }),
  '/api/robots GetRobots': (n) => ({ email: n.email, robot_licenses: [{ robot_id: n.robotId }] }),
  '/api/robots REGISTERSIM': (n) => ({
    email: n.email,
    make: 'Pepper',
    model: 'Pepper',
    name: 'Fuzz Pepper',
    hardware_hash: 'fuzz-hardware',
  }),
  '/api/robots UPDATEROBOT': (n) => ({
    email: n.email,
    robot_id: n.robotId,
    name: 'Front Desk',
    robot_state: { available: true, location: { lat: 51.5, lon: -0.12 } },
    robot_config: { firmware: '2.1', note: 'fine' },
  }),
  '/api/robots UNREGISTER': (n) => ({ email: n.email, robot_id: n.robotId }),
  '/api/robots UPDATEMODALITIES': (n) => ({ email: n.email, robot_id: n.robotId, modalities: ['camera'] }),
  '/api/assets GetAll': () => ({}),
  '/api/assets GetDownload': () => ({
    asset_id: 'robot-hub',
    assets: { id: 'robot-hub', type: 'application', name: 'Robot Hub', artifacts: [artifact] },
    type: 'application',
    download_link: '',
    agreement_version: LICENSE_AGREEMENT_VERSION,
    accepted: true,
  }),
  '/api/flexible_license GetSlots': (n) => ({ user_email: n.email, user_id: n.userId }),
  '/api/flexible_license UpdateSlots': (n) => ({
    user_email: n.email,
    user_id: n.userId,
    user_slots: [{ slot_id: 0, license_id: '', robot_id: 'driver-pepper', updated_on: 0 }],
  }),
  '/api/flexible_license ClearSlots': (n) => ({ user_email: n.email, user_id: n.userId }),
  '/api/support SubmitSupportRequest': (n) => ({
    email: n.email,
    category: 'general',
    subject: 'A question',
    message: 'A question about my robots, long enough.',
    robot_model: 'Pepper',
  }),
  '/api/operator GrantSubscription': (n) => ({ email: n.email, tier: 'Standard Subscription', override_kind: 1 }),
  '/api/operator SetSlotAmount': (n) => ({ email: n.email, amount: 2 }),
  '/api/operator ListPayments': (n) => ({ email: n.email }),
  '/api/operator RefundPayment': (n) => ({ payment_id: n.paymentId }),
  '/api/operator EndSubscriptionPeriod': (n) => ({ subscription_id: n.subscriptionId }),
  '/api/operator RunLifecycle': () => ({}),
  '/api/operator ListOutbox': () => ({}),
  '/api/operator RunOutbox': () => ({}),
  '/api/operator RunReconciliation': () => ({}),
  '/api/operator GetReconciliation': () => ({}),
  '/api/security ListSessions': () => ({}),
  '/api/security RevokeSession': (n) => ({ sign_in_id: n.signInId }),
  '/api/security RevokeOtherSessions': () => ({}),
  '/api/security ListPasskeys': () => ({}),
  '/api/security PasskeyRegistrationOptions': () => ({}),
  '/api/security AddPasskey': () => ({
    name: 'Work laptop',
    credential: {
      id: CREDENTIAL_ID,
      rawId: CREDENTIAL_ID,
      type: 'public-key',
      response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' },
      clientExtensionResults: {},
    },
  }),
  '/api/security RenamePasskey': (n) => ({ passkey_id: n.passkeyId, name: 'Desk key' }),
  '/api/security RemovePasskey': (n) => ({ passkey_id: n.passkeyId }),
  '/api/security PasskeySignInOptions': () => ({}),
  '/api/security PasskeySignIn': () => ({
    credential: {
      id: CREDENTIAL_ID,
      rawId: CREDENTIAL_ID,
      type: 'public-key',
      response: {
        clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
        authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
        signature: 'MEUCIQDsignature',
      },
      clientExtensionResults: {},
    },
    target: 'portal',
  }),
  // A link token that no invitation made (base64url, as the link carries it).
  '/api/security StaffEnrolmentOptions': () => ({ enrolment_token: ENROLMENT_TOKEN }),
  '/api/security StaffEnrol': () => ({
    enrolment_token: ENROLMENT_TOKEN,
    name: 'Work laptop',
    credential: {
      id: CREDENTIAL_ID,
      rawId: CREDENTIAL_ID,
      type: 'public-key',
      response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' },
      clientExtensionResults: {},
    },
  }),
  // The back office (issue 34): staff only, every other caller gets the unknown-route 404.
  '/api/admin Me': () => ({}),
  '/api/admin ListStaff': () => ({}),
  '/api/admin InviteStaff': (n) => ({ email: n.email, role: 'support' }),
  '/api/admin SetStaffRole': (n) => ({ user_id: n.userId, role: 'support' }),
  '/api/admin ListApiKeys': () => ({}),
  '/api/admin CreateApiKey': () => ({ name: 'nightly export', role: 'support' }),
  '/api/admin RevokeApiKey': () => ({ key_id: '00000000-0000-4000-8000-000000000000' }),
  '/api/admin ListAudit': (n) => ({ actor: 'system', customer: n.email, audit_action: 'staff.', from: 0, limit: 20 }),
  '/api/admin ExportAudit': (n) => ({ actor: 'system', customer: n.email, audit_action: 'staff.', from: 0 }),
  // Issue 35: support threads (the customer's side) and the data export.
  '/api/support ListMySupportRequests': () => ({}),
  '/api/support GetMySupportRequest': (n) => ({ ticket_id: n.ticketId }),
  '/api/support ReplyToMySupportRequest': (n) => ({
    ticket_id: n.ticketId,
    message: 'One more detail about my robot, long enough.',
  }),
  '/api/privacy ExportMyData': () => ({}),
  '/api/admin/support ListSupportRequests': () => ({ status: 'new', assignee_user_id: null, offset: 0, limit: 20 }),
  '/api/admin/support GetSupportRequest': (n) => ({ ticket_id: n.ticketId }),
  '/api/admin/support ReplySupportRequest': (n) => ({
    ticket_id: n.ticketId,
    message: 'An answer from support, long enough.',
  }),
  '/api/admin/support SetSupportStatus': (n) => ({ ticket_id: n.ticketId, status: 'closed' }),
  '/api/admin/support AssignSupportRequest': (n) => ({ ticket_id: n.ticketId, assignee_user_id: null }),
  // The console's customers (issue 35): staff only, every change with a reason.
  '/api/admin/customers SearchCustomers': (n) => ({ query: n.email, limit: 10 }),
  '/api/admin/customers GetCustomer': (n) => ({ user_id: n.userId }),
  '/api/admin/customers VerifyEmail': (n) => ({ user_id: n.userId, reason: 'asked by phone' }),
  '/api/admin/customers DisableAccount': (n) => ({ user_id: n.userId, reason: 'card fraud reported' }),
  '/api/admin/customers EnableAccount': (n) => ({ user_id: n.userId, reason: 'fraud cleared' }),
  '/api/admin/customers RevokeSessions': (n) => ({ user_id: n.userId, reason: 'lost laptop' }),
  '/api/admin/customers ResendVerification': (n) => ({ user_id: n.userId, reason: 'mail never came' }),
  '/api/admin/customers GrantDialTime': (n) => ({ user_id: n.userId, minutes: 60, reason: 'outage goodwill' }),
  '/api/admin/customers GrantLicense': (n) => ({ user_id: n.userId, model: 'Pepper', reason: 'trade show demo' }),
  '/api/admin/customers GrantSubscription': (n) => ({
    user_id: n.userId,
    tier: 'Pro Subscription',
    override_kind: 0,
    duration_s: 86_400,
    reason: 'trial for a reseller',
  }),
  '/api/admin/customers EndSubscription': (n) => ({ user_id: n.userId, reason: 'trial over' }),
  '/api/admin/customers SetSlotGrant': (n) => ({ user_id: n.userId, amount: 3, reason: 'pilot project' }),
  '/api/admin/customers RefundPayment': (n) => ({
    user_id: n.userId,
    payment_id: n.paymentId,
    amount: 100,
    reason: 'double charge',
  }),
  '/api/admin/customers UnpairRobot': (n) => ({ user_id: n.userId, robot_id: n.robotId, reason: 'stuck pairing' }),
  '/api/admin/customers DeleteAccount': (n) => ({ user_id: n.userId, reason: 'customer asked by email' }),
  '/api/admin/customers ExportCustomerData': (n) => ({ user_id: n.userId, reason: 'subject access request' }),
  // Issue 35: releases and the overview (a release id names none: the zero UUID).
  '/api/admin/releases ListReleases': () => ({}),
  '/api/admin/releases WithdrawRelease': () => ({
    artifact_id: '00000000-0000-4000-8000-000000000000',
    reason: 'a broken build',
  }),
  '/api/admin/releases RestoreRelease': () => ({
    artifact_id: '00000000-0000-4000-8000-000000000000',
    reason: 'fixed after all',
  }),
  '/api/admin/overview GetOverview': () => ({}),
};

/** Placeholder names: well-formed, naming nothing that exists. */
export function placeholderNames(email: string, userId: string, token: string): Names {
  const zero = '00000000-0000-4000-8000-000000000000';
  return {
    email,
    userId,
    token,
    refreshToken: token,
    robotId: zero,
    licenseId: zero,
    pairCode: 'ABCD2345',
    subscriptionId: zero,
    sessionId: 'cs_sandbox_none',
    paymentId: zero,
    customerId: 'cus_sandbox_none',
    recipient: 'someone-else@example.test',
    signInId: zero,
    passkeyId: zero,
    ticketId: 'SR-ABCD-2345',
  };
}

/** Every string leaf of a body, by path. */
export function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

/** A copy of the body with the value at `path` replaced. */
export function replaceAt(body: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string | number, unknown>;
  copy[head] = replaceAt(copy[head], rest, next);
  return copy;
}
