import { auth } from './auth.ts';
import type { ServiceDef } from './define.ts';
import { useraction } from './useraction.ts';

/** Every service of the spec, by name. The server mounts this table; the API reference is made from it. */
export const services = { useraction, auth } as const satisfies Record<string, ServiceDef>;
export type Services = typeof services;
