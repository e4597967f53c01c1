import type { admin, ResponseOf } from '@portal/contract';

/**
 * The staff member the console is open for (admin.Me), as the console route's guard fetched it
 * (routes/admin/-staff-check.ts, outside this folder so a customer never loads the console's code).
 */
export type StaffMe = ResponseOf<typeof admin, 'Me'>;
