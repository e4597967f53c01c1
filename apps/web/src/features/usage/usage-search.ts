import { USAGE_RANGES_DAYS, type UsageRangeDays } from '@portal/contract';
import { searchParser } from '@/lib/search-params';

export const DEFAULT_USAGE_DAYS: UsageRangeDays = 30;

export type UsageSearch = { days: UsageRangeDays };

/**
 * `?days=90`: the range in the address, so a range can be linked and survives a reload; anything else
 * is 30. A plain reader, not a zod schema: route search validation runs in the entry of every page
 * (docs/decisions/025).
 */
export const usageSearchSchema = searchParser(
  (raw): UsageSearch => ({
    days: USAGE_RANGES_DAYS.find((d) => d === Number(raw.days)) ?? DEFAULT_USAGE_DAYS,
  }),
);
