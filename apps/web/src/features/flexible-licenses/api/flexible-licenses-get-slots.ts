import { type FlexSlotsResponse, flexibleLicense } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const SLOTS_FAILED = 'Failed to fetch slots';

export type FlexSlots = Pick<FlexSlotsResponse, 'user_slots' | 'user_slot_amount' | 'approved_robot_ids'>;

export const slotsOf = (res: FlexSlotsResponse): FlexSlots => ({
  user_slots: res.user_slots,
  user_slot_amount: res.user_slot_amount,
  approved_robot_ids: res.approved_robot_ids,
});

/** GetSlots (spec/001 §7): the user's slots, how many they have, and the approved robot ids (decision 022). */
export async function fetchSlots(email: string, userId: string): Promise<FlexSlots> {
  try {
    return slotsOf(await apiClient.call(flexibleLicense, 'GetSlots', { user_email: email, user_id: userId }));
  } catch (err) {
    throw failedAs(err, SLOTS_FAILED);
  }
}

export const slotsKey = (email: string) => ['flexibleLicense', 'GetSlots', email] as const;

export function slotsQueryOptions(email: string, userId: string) {
  return queryOptions({ queryKey: slotsKey(email), queryFn: () => fetchSlots(email, userId) });
}

export function useSlots(email: string, userId: string) {
  return useQuery(slotsQueryOptions(email, userId));
}
