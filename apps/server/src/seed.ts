import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { hashPassword } from './lib/passwords.ts';
import { userRepository } from './modules/useraction/useraction.repository.ts';

/**
 * On an empty database outside production: a verified demo account, so a newcomer can sign in at
 * once. Its credentials are printed (they are the documented defaults or DEMO_EMAIL/DEMO_PASSWORD).
 */
export async function seedDemo(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  if (!config.SEED_DEMO) return;
  const email = config.DEMO_EMAIL.toLowerCase();
  const existing = await userRepository.byEmail(db, email);
  if (existing) {
    log.info(`demo account: ${email} (password as set when it was created)`);
    return;
  }
  const anyone = await db.query.users.findFirst({ columns: { id: true } });
  if (anyone) return;
  await userRepository.insert(db, {
    email,
    passwordHash: await hashPassword(config.DEMO_PASSWORD),
    name: 'Demo User',
    yearBorn: 1990,
    country: 'United Kingdom',
    company: 'Demo Robotics Ltd',
    profession: 'Engineer',
    marketing: false,
    termsAgreed: true,
    emailValidated: true,
  });
  log.info(`demo account created: sign in as ${email} with password ${config.DEMO_PASSWORD}`);
}
