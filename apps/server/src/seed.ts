import { ONE_DAY_MS } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
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
