/** The texts of Flexible License Management (spec/001 §2, §4, §8), word for word where the spec gives them. */
export const FLEX_TEXT = {
  title: 'Flexible License Management',
  loading: 'Loading flexible licenses...',
  loadError: 'Error loading data. Please try again later.',
  upsellTitle: 'Unlock Flexible Robot Licenses',
  upsellBody:
    'You have no flexible license slots available. A subscription plan with flexible slots lets you assign robot licenses to the models you use and change them whenever you need.',
  upsellAction: 'View Subscription Plans',
  update: 'Update Flexible Licenses',
  updating: 'Updating...',
  clearAll: 'Clear All',
  clearing: 'Clearing...',
  selected: 'Selected Robot Licenses',
  available: 'Available Robot Licenses',
  searchLabel: 'Search robot licenses',
  searchPlaceholder: 'Search by make, model, type or feature',
  noMatches: 'No licenses found matching your search',
  selectTitle: 'Select Robot License',
  robotDetails: 'Robot Details',
  slot: (slotId: number) => `Slot ${slotId + 1}`,
  pairingCode: 'Pairing Code',
  paired: (robotName: string) => (robotName ? `Paired with ${robotName}` : 'Paired with a robot'),
  confirmSyncTitle: 'Confirm Sync',
  // spec/001 §4's words as issue 32 quotes them; what a sync keeps is listed below them (decision 061).
  confirmSyncBody: (count: string) =>
    `You are about to sync ${count}. This removes existing flex licenses and replaces them with the new selection, updates the account, and activates licenses for immediate pairing and use.`,
  confirmSync: 'Sync Licenses',
  confirmClearTitle: 'Confirm Clear All',
  confirmClearBody:
    'This removes all assigned flexible licenses. Robots using them will need to be paired again, and all slots are reset to empty.',
  updated: 'Successfully updated flexible robot licenses',
  updateFailed: 'Failed to update flexible robot licenses',
  updateFailedDetail: 'Failed to update robot licenses. Please try again.',
  cleared: 'Successfully cleared flexible robot licenses',
  clearFailed: 'Failed to clear flexible robot licenses',
  clearFailedDetail: 'Failed to clear robot licenses. Please try again.',
  removeFromSlot: 'Remove from slot',
  dragInstructions:
    'To pick up a license, focus it and press Space. Use the arrow keys to move it between the slots and the available licenses, Space to drop it, and Escape to cancel. Press Enter on a license in a slot to replace or remove it.',
} as const;

/** The local preference behind Confirm Sync's "Don't show this message again" (spec/001 §4). */
export const SKIP_SYNC_CONFIRM_KEY = 'flexLicensesSkipSyncConfirm';
