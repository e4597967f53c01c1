export * from './client.ts';
export * from './client-error.ts';
export * from './tokens.ts';
