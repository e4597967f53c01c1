import { isClientError } from '@portal/client';
import { admin, type ResponseOf } from '@portal/contract';
import type { QueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/**
 * The console's guard call (admin.Me), loaded by the console route's beforeLoad: a small chunk of
 * its own (`staff-check`, vite.config.ts) holding the call and none of the console's screens, so a
 * customer who opens /admin is sent to /dashboard before any admin code is fetched
 * (docs/decisions/073).
 */
export type StaffMe = ResponseOf<typeof admin, 'Me'>;

/** How long the frame trusts an answer while moving between screens; the server decides every call anyway. */
const ME_STALE_MS = 30_000;

export const staffMeKey = (userId: string) => ['admin', 'Me', userId] as const;

/**
 * Who the signed-in account is as staff, or null when it is none: the server answers 404 to a
 * customer and to a staff account in a password session, as for a route that does not exist.
 * Any other failure is thrown (the console's error screen offers to try again).
 */
export async function checkStaff(queryClient: QueryClient, userId: string): Promise<StaffMe | null> {
  try {
    return await queryClient.fetchQuery({
      queryKey: staffMeKey(userId),
      queryFn: () => apiClient.call(admin, 'Me', {}),
      staleTime: ME_STALE_MS,
      retry: false,
    });
  } catch (err) {
    if (isClientError(err) && err.status === 404) return null;
    throw err;
  }
}
