import { type RequestOf, type ResponseOf, security } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export type EnrolmentOptions = ResponseOf<typeof security, 'StaffEnrolmentOptions'>;
export type EnrolAnswer = ResponseOf<typeof security, 'StaffEnrol'>;

/**
 * StaffEnrolmentOptions: who the link is for, the role, and a single-use challenge. Never reused
 * from the cache once the page is left, and not retried: a refused link stays refused.
 */
export function enrolmentQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['security', 'StaffEnrolmentOptions', token] as const,
    queryFn: () => apiClient.call(security, 'StaffEnrolmentOptions', { enrolment_token: token }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/**
 * Registers the passkey the staff member will sign in with: the browser's prompt on the link's
 * options, then StaffEnrol, which answers a signed-in staff session. The WebAuthn helper is loaded
 * here, on use, as the profile page's passkeys do (docs/decisions/032).
 */
export async function enrolStaff(input: {
  token: string;
  name: string;
  options: EnrolmentOptions['options'];
}): Promise<EnrolAnswer> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const credential = await startRegistration({
    optionsJSON: input.options as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  type Credential = RequestOf<typeof security, 'StaffEnrol'>['credential'];
  return apiClient.call(security, 'StaffEnrol', {
    enrolment_token: input.token,
    name: input.name,
    credential: credential as Credential,
  });
}
