import { admin, type StaffMember, type StaffRole } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const STAFF_KEY = ['admin', 'ListStaff'] as const;

export async function fetchStaff(): Promise<StaffMember[]> {
  return (await apiClient.call(admin, 'ListStaff', {})).staff;
}

export function staffQueryOptions() {
  return queryOptions({ queryKey: STAFF_KEY, queryFn: fetchStaff, staleTime: 10_000 });
}

export function useStaff() {
  return useQuery(staffQueryOptions());
}

/** InviteStaff: the role now, and a single-use enrolment link (also mailed). */
export function useInviteStaffMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: StaffRole }) => apiClient.call(admin, 'InviteStaff', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

/** SetStaffRole: another role, or none (`role` null); the answer is the list as it now stands. */
export function useSetStaffRoleMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { userId: string; role: StaffRole | null }) =>
      (await apiClient.call(admin, 'SetStaffRole', { user_id: input.userId, role: input.role })).staff,
    onSuccess: (staff) => queryClient.setQueryData(STAFF_KEY, staff),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}
