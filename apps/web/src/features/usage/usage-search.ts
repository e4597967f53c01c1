import { USAGE_RANGES_DAYS, type UsageRangeDays } from '@portal/contract';
import { z } from 'zod';

export const DEFAULT_USAGE_DAYS: UsageRangeDays = 30;

/** `?days=90`: the range in the address, so a range can be linked and survives a reload; anything else is 30. */
export const usageSearchSchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.literal(USAGE_RANGES_DAYS))
    .optional()
    .catch(undefined)
    .transform((d) => d ?? DEFAULT_USAGE_DAYS),
});
export type UsageSearch = z.output<typeof usageSearchSchema>;
