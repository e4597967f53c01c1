import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { AfterAnswer } from './lib/after-answer.ts';
import type { Clock } from './lib/clock.ts';
import type { Mailer } from './lib/mailer.ts';
import { PortalAddress } from './lib/portal-address.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import { TokenService } from './lib/tokens.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { AdminCustomersService } from './modules/admin-customers/admin-customers.service.ts';
import { OverviewService } from './modules/admin-overview/admin-overview.service.ts';
import { DownloadLinks } from './modules/assets/assets.links.ts';
import { artifactStoreFor } from './modules/assets/assets.s3.ts';
import { AssetService } from './modules/assets/assets.service.ts';
import type { ArtifactStore } from './modules/assets/assets.store.ts';
import { AuditService, auditKeys } from './modules/audit/audit.service.ts';
import { Sessions } from './modules/auth/auth.sessions.ts';
import { EventService } from './modules/events/events.service.ts';
import { FlexSlotService } from './modules/flexible-license/flexible-license.service.ts';
import { LicenseService } from './modules/license/license.service.ts';
import { ShareService } from './modules/license/license.sharing.ts';
import { OperatorService } from './modules/operator/operator.service.ts';
import { BillingService } from './modules/payment/billing.service.ts';
import { loadCatalogue } from './modules/payment/catalogue.ts';
import { Outbox } from './modules/payment/outbox.ts';
import type { PaymentProvider } from './modules/payment/payment.provider.ts';
import { PaymentService } from './modules/payment/payment.service.ts';
import { SandboxProvider } from './modules/payment/sandbox.provider.ts';
import { StripeProvider, stripeSettings } from './modules/payment/stripe.provider.ts';
import { PrivacyService } from './modules/privacy/privacy.service.ts';
import { RetentionService } from './modules/retention/retention.service.ts';
import { RobotService } from './modules/robots/robots.service.ts';
import { SecurityService } from './modules/security/security.service.ts';
import { StaffService } from './modules/staff/staff.service.ts';
import { SubscriptionService } from './modules/subscriptions/subscriptions.service.ts';
import { SupportService } from './modules/support/support.service.ts';
import { SupportInbox } from './modules/support/support-admin.service.ts';
import { TimeService } from './modules/time/time.service.ts';
import { AccountService } from './modules/useraction/useraction.service.ts';
import { countingRejections, type PortalMetrics } from './plugins/metrics.ts';

export interface ServiceDeps {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** where artifact bytes live; the configured store (S3_BUCKET, else DATA_DIR/artifacts) by default */
  store?: ArtifactStore;
  /** the payment provider; the sandbox on the committed catalogue by default */
  provider?: PaymentProvider;
  /** where work after the answer reports its failures */
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** LISTEN on the database, for the live event streams this instance serves (docs/decisions/031) */
  listen?: Database['listen'];
  /** the app's metrics: mails, work after answers, storage and payment-provider failures are counted */
  metrics?: PortalMetrics;
}

/**
 * The composition root: every service of the server, built once and wired to each other here.
 * Route plugins receive this object and never build a service themselves; modules reach each
 * other through these services, never through another module's repository.
 */
export function buildServices({
  config,
  db,
  clock,
  mailer: sender,
  store,
  provider,
  log,
  listen,
  metrics,
}: ServiceDeps) {
  const mailer = metrics ? metrics.countingMails(sender) : sender;
  const tokens = new TokenService(
    config.JWT_SECRET,
    clock,
    config.ACCESS_TOKEN_TTL_S,
    config.REFRESH_TOKEN_TTL_S,
    config.JWT_SECRET_PREVIOUS,
  );
  // Changes to robots, licenses and shares are published in their own transactions (docs/decisions/031).
  const events = new EventService(db, clock, {
    ticketTtlS: config.EVENT_TICKET_TTL_S,
    heartbeatS: config.EVENT_HEARTBEAT_S,
    streamsPerUser: config.EVENT_STREAMS_PER_USER,
    listen,
    log,
  });
  // A session that ends is announced in the same transaction: its streams end on every instance.
  const sessions = new Sessions(
    db,
    tokens,
    clock,
    config.REFRESH_REUSE_GRACE_S,
    (ex, ids) => events.sessionsEnded(ex, ids),
    { maxS: config.STAFF_SESSION_MAX_S, idleS: config.STAFF_SESSION_IDLE_S },
  );
  const limiter = new RateLimiter(db, clock);
  const afterAnswer = new AfterAnswer((err, what) => {
    metrics?.backgroundFailures.inc({ task: what });
    log?.warn({ err }, `${what} failed`);
  });
  let beforeDelete: ((userId: string) => Promise<unknown>) | undefined;
  // Verifying an address claims the shares waiting for it; sharing is built after accounts, which it asks.
  let sharing: ShareService | undefined;
  // docs/decisions/069: the audit trail, appended in the transactions that record outcomes.
  const audit = new AuditService(db, clock, auditKeys(config));
  const staff = new StaffService(db, clock, audit, config.PUBLIC_URL, config.OPERATOR_TOKEN);
  const accounts = new AccountService({
    audit,
    config,
    db,
    clock,
    mailer,
    limiter,
    sessions,
    tokens,
    afterAnswer,
    beforeDelete: (userId) => beforeDelete?.(userId) ?? Promise.resolve(),
    onAddressVerified: (ex, account) => (sharing as ShareService).claimPending(ex, account),
    // Every sign-in tells the security centre (built just below) which browser it came from.
    onSignedIn: (notice): Promise<void> => security.noteSignIn(notice),
  });
  const security: SecurityService = new SecurityService({
    config,
    db,
    clock,
    mailer,
    limiter,
    sessions,
    accounts,
    afterAnswer,
    staff,
  });
  // Licensing and robots need each other (pairing checks the robot; a robot's view shows its
  // license): licensing gets lookups that reach the robot service once it exists.
  let robots: RobotService | undefined;
  const licenses = new LicenseService(db, clock, config.JWT_SECRET, {
    ownRobot: (userId, robotId) => (robots as RobotService).ownRobot(userId, robotId),
    events,
  });
  robots = new RobotService(db, clock, licenses, events, (config.ROBOT_SWEEP_INTERVAL_S || 60) * 1000);
  sharing = new ShareService({
    db,
    clock,
    mailer,
    limiter,
    licenses,
    events,
    publicUrl: config.PUBLIC_URL,
    peers: { verifiedAccount: (email) => accounts.verifiedByEmail(email) },
    limits: {
      perSender: config.SHARE_INVITES_PER_SENDER,
      perRecipient: config.SHARE_INVITES_PER_RECIPIENT,
      windowS: config.SHARE_INVITE_WINDOW_S,
      stopsPerHour: config.RATE_STOP_SHARE_PER_ACCOUNT,
    },
  });
  // docs/decisions/017: Stripe when its keys are set (config.ts requires both or neither), else the sandbox.
  const chosenProvider =
    provider ??
    (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? new StripeProvider(stripeSettings(config), clock)
      : new SandboxProvider(db, loadCatalogue(), config.PUBLIC_URL, clock));
  const paymentProvider = metrics
    ? countingRejections(chosenProvider, (operation) =>
        metrics.providerErrors.inc({ provider: chosenProvider.kind, operation }),
      )
    : chosenProvider;
  // The approved list of flexible licenses is read from the catalogue (docs/decisions/022).
  const slots = new FlexSlotService(db, clock, licenses, {
    catalogue: () => paymentProvider.products(),
    robot: (userId, robotId) => (robots as RobotService).ownRobot(userId, robotId),
  });
  // docs/decisions/019: the one tier rule and the lifecycle, whichever provider bills.
  const subscriptions = new SubscriptionService(db, clock, mailer, config.PUBLIC_URL, {
    licenses,
    slots,
    products: () => paymentProvider.knownProducts(),
    audit,
  });
  const time = new TimeService(db, clock, subscriptions);
  const address = new PortalAddress(config.PUBLIC_URL, config.ALLOWED_HOSTS);
  // docs/decisions/066: work after a commit (cancelling a replaced or revoked plan at the provider), retried.
  const outbox = new Outbox(db, clock, paymentProvider, log);
  const billing = new BillingService(db, clock, paymentProvider, address, { subscriptions, time, outbox, audit });
  const payments = new PaymentService(
    db,
    clock,
    mailer,
    paymentProvider,
    address,
    { licenses, time, subscriptions, billing, audit },
    log as FastifyBaseLogger | undefined,
    outbox,
  );
  // UserDelete cancels the account's subscriptions at the provider before the rows go.
  beforeDelete = (userId) => billing.cancelForDeletion(userId);
  const downloadLinks = new DownloadLinks(config.JWT_SECRET, config.DOWNLOAD_LINK_TTL_S, clock);
  const operators = new OperatorService(db, clock, {
    accounts,
    subscriptions,
    slots,
    billing,
    sessions,
    licenses,
    robots,
    outbox,
    time,
    audit,
  });
  const admin = new AdminService({ config, clock, mailer, afterAnswer, staff, audit, sessions });
  const privacy = new PrivacyService(db, clock, { accounts, subscriptions, robots, licenses, billing, time, audit });
  return {
    tokens,
    sessions,
    limiter,
    afterAnswer,
    events,
    accounts,
    security,
    subscriptions,
    licenses,
    sharing,
    robots,
    slots,
    time,
    billing,
    payments,
    outbox,
    downloadLinks,
    assets: new AssetService(
      db,
      clock,
      countedStore(store ?? artifactStoreFor(config, clock), metrics),
      downloadLinks,
      audit,
    ),
    support: new SupportService(db, clock, mailer, {
      publicUrl: config.PUBLIC_URL,
      inboxEmail: config.SUPPORT_INBOX_EMAIL,
    }),
    supportInbox: new SupportInbox(db, clock, mailer, audit, config.PUBLIC_URL, {
      accounts,
      subscriptions,
      robots,
      licenses,
      billing,
    }),
    operators,
    audit,
    staff,
    admin,
    // the console's customers (issue 35): composed from the services above, the CLI's methods for changes
    privacy,
    customers: new AdminCustomersService({
      config,
      db,
      clock,
      accounts,
      operators,
      licenses,
      robots,
      time,
      slots,
      subscriptions,
      billing,
      sessions,
      security,
      audit,
      admin,
      privacy,
    }),
    overview: new OverviewService(db, clock, () => paymentProvider.knownProducts()),
    retention: new RetentionService(
      db,
      clock,
      Math.max(
        config.LOCKOUT_S,
        config.LOGIN_ACCOUNT_MAX_LOCK_S,
        config.LOGIN_FAILURE_MEMORY_S,
        config.LOGIN_KNOWN_ADDRESS_S,
      ),
      audit,
    ),
  };
}

/** The artifact store, its failed calls counted (S3 down or not answering, a disk that fails). */
function countedStore(store: ArtifactStore, metrics: PortalMetrics | undefined): ArtifactStore {
  return metrics ? countingRejections(store, (operation) => metrics.storageErrors.inc({ operation })) : store;
}

export type Services = ReturnType<typeof buildServices>;

/** What every route plugin is registered with. */
export interface RouteOptions {
  config: Config;
  services: Services;
}
