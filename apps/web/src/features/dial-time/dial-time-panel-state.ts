import { type DialSummary, dialSummary, type TierShort, type UserTimePools } from '@portal/contract';

/** The dial time panel's texts (spec/001 §2). */
export const DIAL_PANEL_TEXT = {
  authRequired: 'Authentication required',
  loadFailed: 'Failed to load dial time information',
  infiniteBar: 'Infinite Dial Time',
  infinite: 'You have infinite dial time with your Pro subscription.',
  upgrade: 'Upgrade to Pro',
  /** issue 15: the link to the dial-time history */
  viewUsage: 'View usage',
} as const;

export type DialPanelState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'infinite' }
  | { kind: 'normal'; summary: DialSummary; showUpgrade: boolean };

/**
 * Which of the dial panel's four states to show. Pro or infinite time wins over the numbers; Lite
 * users also see the "Upgrade to Pro" box.
 */
export function dialPanelState(input: {
  loading: boolean;
  /** no stored session token or email */
  unauthenticated?: boolean;
  error?: unknown;
  tier: TierShort;
  userTime?: UserTimePools | undefined;
}): DialPanelState {
  if (input.unauthenticated) return { kind: 'error', message: DIAL_PANEL_TEXT.authRequired };
  if (input.loading) return { kind: 'loading' };
  if (input.error || !input.userTime) return { kind: 'error', message: DIAL_PANEL_TEXT.loadFailed };
  if (input.tier === 'Pro' || input.userTime.has_infinite_time) return { kind: 'infinite' };
  return { kind: 'normal', summary: dialSummary(input.userTime), showUpgrade: input.tier === 'Lite' };
}
