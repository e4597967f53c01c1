/** The whole database schema for drizzle: one file of tables per service under tables/. */
export * from './tables/accounts.ts';
export * from './tables/assets.ts';
export * from './tables/audit.ts';
export * from './tables/events.ts';
export * from './tables/flexible-license.ts';
export * from './tables/license.ts';
export * from './tables/payment.ts';
export * from './tables/robots.ts';
export * from './tables/security.ts';
export * from './tables/staff.ts';
export * from './tables/subscriptions.ts';
export * from './tables/support.ts';
export * from './tables/time.ts';
