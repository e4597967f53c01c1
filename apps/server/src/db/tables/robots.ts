import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Robots the hub registered for a user (REGISTERSIM); a license binds one when paired. */
export const robots = pgTable(
  'robots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    make: text('make').notNull(),
    model: text('model').notNull(),
    name: text('name').notNull(),
    hardwareHash: text('hardware_hash').notNull(),
    /** robot_state.available, as the hub last reported it */
    available: boolean('available').notNull().default(false),
    /** robot_config: free-form, `modalities` lives here */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    simulated: boolean('simulated').notNull().default(true),
    /** the robot's last report (UPDATEROBOT, UPDATE_TIME); null until its first (issue 15) */
    lastSeenAt: ts('last_seen_at'),
    /** the last position it reported (robot_state.location), degrees; both null until one is */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    registeredAt: ts('registered_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // The same hardware registered twice by one user is one robot.
  (t) => [
    uniqueIndex('robots_user_hardware_idx').on(t.userId, t.hardwareHash),
    // the console finds a customer by a robot id's prefix (issue 35)
    index('robots_id_prefix_idx').on(sql`(${t.id}::text) text_pattern_ops`),
  ],
);
