/** The whole database schema for drizzle: one file of tables per service under tables/. */
export * from './tables/accounts.ts';
export * from './tables/support.ts';
