import { ONE_DAY_MS } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { robots } from './db/schema.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { hashPassword } from './lib/passwords.ts';
import { userRepository } from './modules/useraction/useraction.repository.ts';
import { DEMO_JOINED_DAYS_AGO, seedDemoData } from './seed-demo-data.ts';

/**
 * On an empty database outside production: a verified demo account, so a newcomer can sign in at
 * once. Its credentials are printed (they are the documented defaults or DEMO_EMAIL/DEMO_PASSWORD).
 * The account comes with robots, licenses, dial time and downloads (seed-demo-data.ts), so the
 * first look at /dashboard shows every kind of card.
 */
export async function seedDemo(
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
): Promise<void> {
  // Never a demo account in production, whatever SEED_DEMO says.
  if (!config.SEED_DEMO || config.NODE_ENV === 'production') return;
  const email = config.DEMO_EMAIL.toLowerCase();
  const existing = await userRepository.byEmail(db, email);
  if (existing) {
    log.info(`demo account: ${email} (password as set when it was created)`);
    return;
  }
  const anyone = await db.query.users.findFirst({ columns: { id: true } });
  if (anyone) return;
  const passwordHash = await hashPassword(config.DEMO_PASSWORD);
  // The account and its data are made together or not at all.
  const data = await db.transaction(async (tx) => {
    const demo = await userRepository.insert(tx, {
      joinedAt: new Date(clock.now().getTime() - DEMO_JOINED_DAYS_AGO * ONE_DAY_MS),
      email,
      passwordHash,
      name: 'Demo User',
      yearBorn: 1990,
      country: 'United Kingdom',
      company: 'Demo Robotics Ltd',
      profession: 'Engineer',
      marketing: false,
      termsAgreed: true,
      emailValidated: true,
    });
    if (!demo) throw new Error('demo account could not be created');
    return seedDemoData(db, tx, config, clock, { id: demo.id, email, joinedAt: demo.joinedAt });
  });
  log.info(`demo account created: sign in as ${email} with password ${config.DEMO_PASSWORD}`);
  log.info(
    `demo data created: robots, licenses, dial time and hub downloads; pairing code of the unpaired Tiago_Steel license: ${data.pairCode}; a robot is shared by ${data.colleagueEmail}`,
  );
}

/** How often the demo's hub reports its live robots: well inside ROBOT_REPORT_TIMEOUT_MS. */
export const DEMO_HUB_INTERVAL_MS = 60_000;

/**
 * The demo's hub (outside production, with SEED_DEMO): the demo account's robots that were seeded
 * available keep reporting, as a real hub's would, so they stay Active however long the demo runs
 * (a robot not heard from for ROBOT_REPORT_TIMEOUT_MS is Inactive, docs/decisions/067). Each report
 * goes through the robots service like a dial's. Answers a stop function (nothing runs when there
 * is no demo account).
 */
export async function startDemoHub(
  db: Db,
  config: Config,
  report: (robotId: string) => Promise<void>,
  log: FastifyBaseLogger,
): Promise<() => void> {
  if (!config.SEED_DEMO || config.NODE_ENV === 'production') return () => {};
  const demo = await userRepository.byEmail(db, config.DEMO_EMAIL.toLowerCase());
  if (!demo) return () => {};
  const tick = async () => {
    const live = await db
      .select({ id: robots.id })
      .from(robots)
      .where(and(eq(robots.userId, demo.id), eq(robots.available, true)));
    for (const robot of live) await report(robot.id);
  };
  const timer = setInterval(() => {
    tick().catch((err) => log.warn({ err }, 'the demo hub could not report its robots'));
  }, DEMO_HUB_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
