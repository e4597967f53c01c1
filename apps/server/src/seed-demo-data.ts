import { randomBytes } from 'node:crypto';
import {
  type ArtifactArch,
  type ArtifactOS,
  AssetType,
  creditEntry,
  type LedgerContext,
  type LedgerEntry,
  ONE_DAY_MS,
  ONE_DAY_S,
  OverrideKind,
  openPeriod,
  type SubscriptionStatus,
  type TierShort,
  useEntry,
  type VersionNumber,
} from '@portal/contract';
import { strToU8, zipSync } from 'fflate';
import type { Config } from './config.ts';
import type { Db, Executor } from './db/client.ts';
import type { SessionLine } from './db/tables/payment.ts';
import type { Clock } from './lib/clock.ts';
import { noMailer } from './lib/mailer.ts';
import { hashPassword } from './lib/passwords.ts';
import { assetRepository } from './modules/assets/assets.repository.ts';
import { HUB_ASSET_ID } from './modules/assets/assets.service.ts';
import { flexSlotRepository } from './modules/flexible-license/flexible-license.repository.ts';
import { licenseRepository } from './modules/license/license.repository.ts';
import { loadCatalogue } from './modules/payment/catalogue.ts';
import { paymentRepository } from './modules/payment/payment.repository.ts';
import { robotRepository } from './modules/robots/robots.repository.ts';
import { subscriptionRepository } from './modules/subscriptions/subscriptions.repository.ts';
import { type LedgerWrite, timeRepository } from './modules/time/time.repository.ts';
import { userRepository } from './modules/useraction/useraction.repository.ts';
import { buildServices } from './services.ts';

/** How long ago the demo account bought its yearly Standard plan. */
export const DEMO_PLAN_DAYS_AGO = 60;

/** How long before the seed the demo account joined: its first (Lite) year has ended. */
export const DEMO_JOINED_DAYS_AGO = 430;

/** Robot-driver assets: the catalogue ids licenses and flexible slots refer to. */
export const DEMO_DRIVERS = [
  { id: 'driver-pepper', model: 'Pepper', make: 'Pepper' },
  { id: 'driver-nao', model: 'Nao', make: 'Nao' },
  { id: 'driver-tiago-steel', model: 'Tiago_Steel', make: 'Tiago_Steel' },
  { id: 'driver-tiago-plus-plus', model: 'Tiago++', make: 'Tiago++' },
  { id: 'driver-artus-hand', model: 'Artus_Hand', make: 'Artus_Hand' },
  { id: 'driver-tiago-titanium', model: 'Tiago_Titanium', make: 'Tiago_Titanium' },
  { id: 'driver-rhino', model: 'Rhino', make: 'Rhino' },
  { id: 'driver-sid1', model: 'SID1', make: 'SID1' },
] as const;

export const HUB_BUILDS: { os: ArtifactOS; arch: ArtifactArch; version: VersionNumber; label: string }[] = [
  { os: 'windows', arch: 'amd64', version: { major: 1, minor: 4, patch: 2, revision: 0 }, label: 'Windows (AMD64)' },
  { os: 'mac', arch: 'amd64', version: { major: 1, minor: 4, patch: 2, revision: 0 }, label: 'macOS (Intel)' },
  { os: 'mac', arch: 'arm64', version: { major: 1, minor: 4, patch: 2, revision: 0 }, label: 'macOS (Apple silicon)' },
  { os: 'linux', arch: 'deb', version: { major: 1, minor: 3, patch: 0, revision: 7 }, label: 'Linux (DEB)' },
  { os: 'linux', arch: 'deb', version: { major: 1, minor: 4, patch: 2, revision: 0 }, label: 'Linux (DEB)' },
  { os: 'linux', arch: 'rpm', version: { major: 1, minor: 4, patch: 2, revision: 0 }, label: 'Linux (RPM)' },
];

const versionText = (v: VersionNumber) => `${v.major}.${v.minor}.${v.patch}.${v.revision}`;

// A fixed date: the same archive bytes, and so the same checksum, on every run.
const ZIP_MTIME = new Date(Date.UTC(2026, 0, 1));

/** The files of a demo installer: a README and an install script that says what it is. */
export function demoInstallerFiles(build: (typeof HUB_BUILDS)[number]): Record<string, string> {
  const version = versionText(build.version);
  return {
    'README.txt': `Robot Hub ${version} for ${build.label}\n\nThis is a demonstration build shipped with the portal's demo data.\nIt installs nothing; a real release replaces it (npx tsx apps/server/src/cli.ts artifacts:add).\n`,
    'install.sh': `#!/bin/sh\necho "Robot Hub ${version} (${build.os}/${build.arch}) demo installer"\n`,
  };
}

/** A small installer-like archive of demoInstallerFiles. */
function demoInstaller(build: (typeof HUB_BUILDS)[number]): Buffer {
  const files = Object.fromEntries(
    Object.entries(demoInstallerFiles(build)).map(([name, text]) => [name, strToU8(text)] as const),
  );
  return Buffer.from(zipSync(files, { mtime: ZIP_MTIME }));
}

interface LedgerStep {
  daysAgo: number;
  tier: TierShort;
  anchor: Date;
  op: { use: number } | { buy: number };
}

/** Writes a plausible history through the same ledger functions the service uses. */
async function seedLedger(tx: Executor, userId: string, now: Date, steps: readonly LedgerStep[]) {
  const entries: LedgerEntry[] = [];
  const writes: LedgerWrite[] = [];
  steps.forEach((step, i) => {
    const at = new Date(now.getTime() - step.daysAgo * ONE_DAY_MS);
    const ctx: LedgerContext = {
      tier: step.tier,
      anchorMs: step.anchor.getTime(),
      nowMs: at.getTime(),
      subscriptionEndMs: 0,
    };
    const opening = openPeriod(entries, ctx);
    entries.push(...opening);
    writes.push(...opening.map((e) => ({ ...e, reason: 'demo data', createdAt: at })));
    const entry = 'use' in step.op ? useEntry(entries, ctx, step.op.use) : creditEntry(ctx, 'purchase', step.op.buy);
    entries.push(entry);
    writes.push({
      ...entry,
      reason: 'use' in step.op ? 'demo dial' : 'demo time package',
      robotId: 'use' in step.op ? 'demo-robot' : null,
      idempotencyKey: `demo:${i}`,
      createdAt: at,
    });
  });
  await timeRepository.append(tx, userId, writes);
}

/**
 * What the demo account bought through the sandbox (docs/decisions/017, 018): a driver session whose
 * robot-driver subscriptions show every status (the paired Pepper active, the unpaired Tiago_Steel
 * pending assignment, and three more licenses expired, cancelled and inactive), and a session of
 * two 300-minute time packages (the ledger's purchase above).
 */
async function seedPurchases(
  tx: Executor,
  demo: { id: string; email: string },
  now: Date,
  opts: {
    paired: string | undefined;
    unpaired: string;
    grant(input: {
      userId: string;
      model: string;
      make: string;
      assetId: string;
      startsAt: Date;
      durationS: number;
    }): Promise<{
      license: { id: string };
    }>;
  },
) {
  const ago = (days: number) => new Date(now.getTime() - days * ONE_DAY_MS);
  const catalogue = new Map(loadCatalogue().products.map((p) => [p.id, p]));
  const customerId = `cus_sandbox_demo${randomBytes(6).toString('hex')}`;
  const billing = {
    name: 'Demo User',
    email: demo.email,
    line1: '1 Demo Street',
    city: 'London',
    postcode: 'EC1A 1AA',
    country: 'United Kingdom',
    company: 'Demo Robotics Ltd',
    vatNumber: 'GB123456789',
  };
  // The card on file the sandbox charges at renewal: the test card that succeeds.
  await paymentRepository.saveCustomer(tx, {
    userId: demo.id,
    customerId,
    provider: 'sandbox',
    billing,
    cardLast4: '4242',
    createdAt: ago(420),
  });
  const lineOf = (productId: string, quantity: number, priceIndex = 0): SessionLine => {
    const product = catalogue.get(productId);
    const price = product?.prices[priceIndex];
    if (!product || !price) throw new Error(`demo purchase: ${productId} is not in the catalogue`);
    return {
      product_id: product.id,
      price_id: price.id,
      name: product.name,
      kind: productId.startsWith('prod_time') ? 'time' : productId.startsWith('prod_driver') ? 'driver' : 'plan',
      quantity,
      unit_amount: price.unit_amount,
      interval: price.recurring?.interval ?? null,
    };
  };
  const paidSession = async (id: string, lines: SessionLine[], at: Date, ref: string | null = null) => {
    const amount = lines.reduce((sum, l) => sum + l.unit_amount * l.quantity, 0);
    await paymentRepository.insertSession(tx, {
      id,
      userId: demo.id,
      userEmail: demo.email,
      provider: 'sandbox',
      customerId,
      lines,
      amount,
      currency: 'gbp',
      providerSubscriptionId: ref,
      successUrl: 'http://localhost/dashboard/cart/success',
      cancelUrl: 'http://localhost/dashboard/cart/cancel',
      url: '',
      status: 'paid',
      billing,
      createdAt: at,
      updatedAt: at,
    });
    await paymentRepository.claimFulfilment(tx, id, at);
    // The paid history the billing page lists, each with its receipt.
    await paymentRepository.insertPayment(tx, {
      userId: demo.id,
      provider: 'sandbox',
      kind: 'checkout',
      sessionId: id,
      subscriptionRef: ref,
      providerRef: `py_sandbox_demo${randomBytes(6).toString('hex')}`,
      description: lines.map((l) => `${l.quantity} × ${l.name}`).join(', '),
      lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, unit_amount: l.unit_amount })),
      amount,
      currency: 'gbp',
      status: 'paid',
      billing,
      createdAt: at,
    });
  };

  // Lite then: the higher of the package's prices (spec/001 §9), the first in the catalogue.
  await paidSession(`cs_sandbox_demo_time_${randomBytes(6).toString('hex')}`, [lineOf('prod_time_300', 2)], ago(420));
  // The yearly Standard plan: a sandbox subscription that renews in 305 days (docs/decisions/019).
  const planSession = `cs_sandbox_demo_plan_${randomBytes(6).toString('hex')}`;
  const planRef = `sub_sandbox_demo_plan_${randomBytes(6).toString('hex')}`;
  const planLine = lineOf('prod_standard', 1, 1);
  await paidSession(planSession, [planLine], ago(DEMO_PLAN_DAYS_AGO), planRef);
  await subscriptionRepository.insert(tx, {
    userId: demo.id,
    tier: 'Standard Subscription',
    status: 'active',
    overrideKind: OverrideKind.None,
    startsAt: ago(DEMO_PLAN_DAYS_AGO),
    endsAt: new Date(ago(DEMO_PLAN_DAYS_AGO).getTime() + 365 * ONE_DAY_MS),
    stripeId: planRef,
    stripeCustomerId: customerId,
    productId: 'prod_standard',
    priceId: planLine.price_id,
    flexSlots: Number(catalogue.get('prod_standard')?.metadata.BOW_FLEX_SLOTS ?? 0),
    sessionId: planSession,
    createdAt: ago(DEMO_PLAN_DAYS_AGO),
    updatedAt: ago(DEMO_PLAN_DAYS_AGO),
  });
  const drivers = `cs_sandbox_demo_drivers_${randomBytes(6).toString('hex')}`;
  await paidSession(
    drivers,
    [
      lineOf('prod_driver_pepper', 1),
      lineOf('prod_driver_tiago_steel', 1),
      lineOf('prod_driver_artus_hand', 2),
      lineOf('prod_driver_tiago_plus_plus', 1),
    ],
    ago(400),
  );
  const year = 365 * ONE_DAY_S;
  const more = [
    // Ended 35 days ago, not renewed.
    { model: 'Artus_Hand', assetId: 'driver-artus-hand', daysAgo: 400, status: 'expired' },
    // Cancelled at the end of its period: still working for 215 days.
    { model: 'Tiago++', assetId: 'driver-tiago-plus-plus', daysAgo: 150, status: 'cancelled' },
    // Held while the customer's bank disputes its charge (a failed renewal keeps working until
    // Stripe gives up, then expires: decision 065); Inactive until the dispute is closed.
    { model: 'Artus_Hand', assetId: 'driver-artus-hand', daysAgo: 380, status: 'inactive' },
  ] as const;
  const rows: { licenseId: string; assetId: string; status: SubscriptionStatus; daysAgo: number }[] = [];
  if (opts.paired) rows.push({ licenseId: opts.paired, assetId: 'driver-pepper', status: 'active', daysAgo: 200 });
  rows.push({ licenseId: opts.unpaired, assetId: 'driver-tiago-steel', status: 'pending_assignment', daysAgo: 3 });
  for (const m of more) {
    const { license } = await opts.grant({
      userId: demo.id,
      model: m.model,
      make: m.model,
      assetId: m.assetId,
      startsAt: ago(m.daysAgo),
      durationS: year,
    });
    rows.push({ licenseId: license.id, assetId: m.assetId, status: m.status, daysAgo: m.daysAgo });
  }
  // The live ones renew through the sandbox, each its own subscription; the ended ones are history.
  const live: readonly SubscriptionStatus[] = ['active', 'pending_assignment'];
  for (const r of rows)
    await paymentRepository.insertDriverSubscription(tx, {
      userId: demo.id,
      robotLicenseId: r.licenseId,
      assetId: r.assetId,
      sessionId: drivers,
      durationS: year,
      status: r.status,
      stripeId: live.includes(r.status) ? `sub_sandbox_demo_${r.assetId}_${randomBytes(6).toString('hex')}` : '',
      stripeCustomerId: customerId,
      priceId: catalogue.get(`prod_${r.assetId.replace(/-/g, '_')}`)?.prices[0]?.id ?? '',
      createdAt: ago(r.daysAgo),
      updatedAt: now,
    });
}

/**
 * The demo account's robots, licenses, dial time and downloads (issue 4 item 9): a paired robot
 * that is Active, an unpaired license with its pairing code, a flexible license on an Inactive
 * robot, a robot shared by another account, a Standard subscription, perishable and durable time
 * with some use, and a demo hub build per platform. Runs in the transaction that creates the demo
 * account on an empty database (`db` only builds the services; every write goes through `tx`).
 * Answers the pairing code so the log can show it.
 */
export async function seedDemoData(
  db: Db,
  tx: Executor,
  config: Config,
  clock: Clock,
  demo: { id: string; email: string; joinedAt: Date },
): Promise<{ pairCode: string; colleagueEmail: string }> {
  const now = clock.now();
  const ago = (days: number) => new Date(now.getTime() - days * ONE_DAY_MS);
  const { licenses, assets: files } = buildServices({ db, clock, config, mailer: noMailer });
  const colleagueEmail = `colleague@${demo.email.split('@')[1] ?? 'robot-portal.local'}`;
  // Nobody signs in as the colleague: the password is random and never shown.
  const colleagueHash = await hashPassword(randomBytes(24).toString('base64url'));

  {
    // Downloads: the hub application with a build per platform, and the robot drivers.
    await assetRepository.upsertAsset(tx, {
      id: HUB_ASSET_ID,
      type: AssetType.Application,
      name: 'Robot Hub',
      description: 'The desktop hub that connects your robots to the platform.',
      author: 'Robot Portal',
      license: 'Robot Portal Software License',
      createdAt: now,
    });
    for (const build of HUB_BUILDS)
      await files.addArtifact(tx, {
        assetId: HUB_ASSET_ID,
        fileName: `robot-hub-${versionText(build.version)}-${build.os}-${build.arch}.zip`,
        data: demoInstaller(build),
        os: build.os,
        arch: build.arch,
        version: build.version,
        language: 'en',
        createdAt: build.version.minor === 3 ? ago(120) : ago(14),
      });
    for (const d of DEMO_DRIVERS)
      await assetRepository.upsertAsset(tx, {
        id: d.id,
        type: AssetType.RobotDriver,
        name: `${d.model} driver`,
        description: `Commercial driver for ${d.model} robots.`,
        author: 'Robot Portal',
        license: 'BOW Commercial License',
        make: d.make,
        model: d.model,
        createdAt: now,
      });

    // A Standard plan bought 60 days ago (seedPurchases records it); before it, a Lite year.
    const subscriptionStart = ago(DEMO_PLAN_DAYS_AGO);
    const joined = demo.joinedAt;
    const lite = (daysAgo: number, op: LedgerStep['op']): LedgerStep => ({ daysAgo, tier: 'Lite', anchor: joined, op });
    const standard = (daysAgo: number, op: LedgerStep['op']): LedgerStep => ({
      daysAgo,
      tier: 'Standard',
      anchor: subscriptionStart,
      op,
    });
    // Lite year: 600 perishable used up, then 45 of the 500 bought. Standard: 1240 of 3000 used.
    await seedLedger(tx, demo.id, now, [
      // Two 300-minute packages, bought through the sandbox (the session is recorded below).
      lite(420, { buy: 600 }),
      lite(330, { use: 250 }),
      lite(240, { use: 350 }),
      lite(150, { use: 45 }),
      standard(55, { use: 640 }),
      standard(20, { use: 600 }),
    ]);

    const pairWith = async (
      userId: string,
      licenseInput: { model: string; assetId: string; isFlexible?: boolean; startedDaysAgo: number },
      robot: { name: string; available: boolean; modalities: string[] },
    ) => {
      const { license, code } = await licenses.grantRobotLicense(tx, {
        userId,
        model: licenseInput.model,
        make: licenseInput.model,
        assetId: licenseInput.assetId,
        isFlexible: licenseInput.isFlexible ?? false,
        source: licenseInput.isFlexible ? 'flexible' : 'demo',
        startsAt: ago(licenseInput.startedDaysAgo),
      });
      const { robot: row } = await robotRepository.register(tx, {
        userId,
        make: licenseInput.model,
        model: licenseInput.model,
        name: robot.name,
        hardwareHash: `demo-${randomBytes(8).toString('hex')}`,
        now: ago(licenseInput.startedDaysAgo),
      });
      await robotRepository.update(tx, row.id, userId, {
        available: robot.available,
        config: { modalities: robot.modalities },
        // An available robot is one its hub has just reported (robotAvailable): the seed is that report.
        ...(robot.available ? { seenAt: now } : {}),
        now,
      });
      await licenseRepository.redeem(tx, { hash: licenses.codes.hash(code), userId, robotId: row.id, now });
      return { license, robot: row };
    };

    // Paired and Active.
    await pairWith(
      demo.id,
      { model: 'Pepper', assetId: 'driver-pepper', startedDaysAgo: 200 },
      { name: 'Reception Pepper', available: true, modalities: ['camera', 'speech', 'tablet'] },
    );
    // Unpaired, with its pairing code.
    const unpaired = await licenses.grantRobotLicense(tx, {
      userId: demo.id,
      model: 'Tiago_Steel',
      make: 'Tiago_Steel',
      assetId: 'driver-tiago-steel',
      source: 'demo',
      startsAt: ago(3),
    });
    // A flexible license in slot 0 of two (an operator's grant of 2 over the Standard plan's 1; a Pro
    // upgrade gives 3, docs/decisions/061), paired to a robot that is switched off (Inactive).
    const standardSlots = loadCatalogue().products.find((p) => p.id === 'prod_standard')?.metadata.BOW_FLEX_SLOTS;
    await flexSlotRepository.setAmount(tx, demo.id, Number(standardSlots ?? 0), 'subscription', now);
    await flexSlotRepository.setAmount(tx, demo.id, 2, 'operator', now);
    const flexible = await pairWith(
      demo.id,
      { model: 'Nao', assetId: 'driver-nao', isFlexible: true, startedDaysAgo: 30 },
      { name: 'Lab Nao', available: false, modalities: ['camera', 'speech', 'motion'] },
    );
    await flexSlotRepository.upsertSlot(tx, {
      userId: demo.id,
      slotId: 0,
      robotId: 'driver-nao',
      licenseId: flexible.license.id,
      now,
    });
    await flexSlotRepository.upsertSlot(tx, { userId: demo.id, slotId: 1, robotId: '', licenseId: null, now });

    await seedPurchases(tx, demo, now, {
      paired: (await licenseRepository.ofUser(tx, demo.id)).find((l) => l.robotModel === 'Pepper')?.id,
      unpaired: unpaired.license.id,
      grant: (input) => licenses.grantRobotLicense(tx, { ...input, source: 'purchase' }),
    });

    // A colleague's robot, shared with the demo account for 90 days.
    const colleague = await userRepository.insert(tx, {
      email: colleagueEmail,
      passwordHash: colleagueHash,
      name: 'Alex Colleague',
      yearBorn: 1985,
      country: 'United Kingdom',
      company: 'Demo Robotics Ltd',
      profession: 'Roboticist',
      termsAgreed: true,
      emailValidated: true,
    });
    if (!colleague) throw new Error('demo colleague account already exists');
    const shared = await pairWith(
      colleague.id,
      { model: 'Tiago++', assetId: 'driver-tiago-plus-plus', startedDaysAgo: 100 },
      { name: 'Warehouse Tiago', available: true, modalities: ['camera', 'lidar', 'arm'] },
    );
    await licenseRepository.insertShare(tx, {
      licenseId: shared.license.id,
      ownerId: colleague.id,
      recipientId: demo.id,
      recipientEmail: demo.email,
      startsAt: ago(5),
      endsAt: new Date(now.getTime() + 85 * ONE_DAY_MS),
      createdAt: ago(5),
    });

    return { pairCode: unpaired.code, colleagueEmail };
  }
}
