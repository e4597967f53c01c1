import { admin } from './admin.ts';
import { adminCustomers } from './admin-customers.ts';
import { adminOverview } from './admin-overview.ts';
import { adminReleases } from './admin-releases.ts';
import { adminSupport } from './admin-support.ts';
import { assets } from './assets.ts';
import { auth } from './auth.ts';
import type { ServiceDef } from './define.ts';
import { events } from './events.ts';
import { flexibleLicense } from './flexible-license.ts';
import { license } from './license.ts';
import { operator } from './operator.ts';
import { payment } from './payment.ts';
import { privacy } from './privacy.ts';
import { robots } from './robots.ts';
import { security } from './security.ts';
import { support } from './support.ts';
import { time } from './time.ts';
import { useraction } from './useraction.ts';

/**
 * Every service of the spec, by name. The server mounts every `live` one (a server test holds it to
 * that); `planned` ones are written ahead of an open issue. The API reference is made from it.
 */
export const services = {
  useraction,
  auth,
  payment,
  time,
  license,
  robots,
  assets,
  flexibleLicense,
  support,
  operator,
  security,
  events,
  admin,
  adminSupport,
  adminReleases,
  adminOverview,
  privacy,
  adminCustomers,
} as const satisfies Record<string, ServiceDef>;
export type Services = typeof services;
