export * from './accounts.ts';
export * from './outbox.ts';
