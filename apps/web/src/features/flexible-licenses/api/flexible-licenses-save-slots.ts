import { type FlexSlotUpdate, flexibleLicense } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';
import { FLEX_LICENSES_KEY } from './flexible-licenses-get-licenses';
import { type FlexSlots, slotsKey, slotsOf } from './flexible-licenses-get-slots';

export const UPDATE_FAILED = 'Failed to update slots';
export const CLEAR_FAILED = 'Failed to clear slots';

/** Every GetRobots query of the Robot Manager (its key starts so): a save changes which robots are licensed. */
const ROBOTS_QUERIES = ['robots'] as const;

/** UpdateSlots: replaces the user's flexible licenses with the selection (docs/decisions/022). */
export async function updateSlots(email: string, userId: string, slots: FlexSlotUpdate[]): Promise<FlexSlots> {
  try {
    return slotsOf(
      await apiClient.call(flexibleLicense, 'UpdateSlots', { user_email: email, user_id: userId, user_slots: slots }),
    );
  } catch (err) {
    throw failedAs(err, UPDATE_FAILED);
  }
}

/** ClearSlots: empties every slot and removes the user's flexible licenses. */
export async function clearSlots(email: string, userId: string): Promise<FlexSlots> {
  try {
    return slotsOf(await apiClient.call(flexibleLicense, 'ClearSlots', { user_email: email, user_id: userId }));
  } catch (err) {
    throw failedAs(err, CLEAR_FAILED);
  }
}

/**
 * After a save or a clear (spec/001 §4): the slot data is replaced by the answer, then the slots,
 * the licenses and the robots are fetched again.
 */
function useAfterSave(email: string) {
  const queryClient = useQueryClient();
  return {
    onSuccess: (slots: FlexSlots) => queryClient.setQueryData(slotsKey(email), slots),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: slotsKey(email) }),
        queryClient.invalidateQueries({ queryKey: FLEX_LICENSES_KEY }),
        queryClient.invalidateQueries({ queryKey: ROBOTS_QUERIES }),
      ]);
    },
  };
}

export function useUpdateSlots(email: string, userId: string) {
  return useMutation({
    mutationFn: (slots: FlexSlotUpdate[]) => updateSlots(email, userId, slots),
    ...useAfterSave(email),
  });
}

export function useClearSlots(email: string, userId: string) {
  return useMutation({ mutationFn: () => clearSlots(email, userId), ...useAfterSave(email) });
}
