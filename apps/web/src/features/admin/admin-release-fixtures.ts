import { type AdminOverviewAnswer, RELEASE_PLATFORMS, type ReleasePlatform, type ReleaseView } from '@portal/contract';

/** Stand-ins for the releases' and the overview's answers in the web tests (packages/contract/src/admin-releases.ts, admin-overview.ts). */

export function release(overrides: Partial<ReleaseView> = {}): ReleaseView {
  return {
    artifact_id: '55555555-5555-4555-8555-555555555555',
    asset_id: 'robot-hub',
    os: 'linux',
    arch: 'deb',
    version: '2.0.1.0',
    file_name: 'robot-hub-2.0.1.deb',
    size_bytes: 12_400_000,
    checksum: 'ab'.repeat(32),
    uploaded_at: Date.UTC(2026, 10, 20, 9, 0),
    offered: false,
    withdrawn_at: 0,
    withdrawn_reason: '',
    ...overrides,
  };
}

/** ListReleases' answer: every platform the contract names, with the builds given for some. */
export function releasePlatforms(builds: Partial<Record<string, ReleaseView[]>> = {}): ReleasePlatform[] {
  return RELEASE_PLATFORMS.map((p) => {
    const list = builds[`${p.os}/${p.arch}`] ?? [];
    return {
      os: p.os,
      arch: p.arch,
      offered_artifact_id: list.find((b) => b.offered)?.artifact_id ?? '',
      builds: list,
    };
  });
}

export function overview(overrides: Partial<AdminOverviewAnswer> = {}): AdminOverviewAnswer {
  return {
    as_of: Date.UTC(2026, 10, 27, 12, 0),
    accounts: { total: 1234, new_this_week: 17 },
    plans_by_tier: [
      { tier: 'Standard', paid: 40, granted: 2 },
      { tier: 'Pro', paid: 12, granted: 0 },
    ],
    revenue_visible: true,
    recurring_revenue: [
      { currency: 'gbp', monthly_amount: 123_456, plans: 50, drivers: 7 },
      { currency: 'usd', monthly_amount: 9_999, plans: 2, drivers: 0 },
    ],
    unpriced_subscriptions: 0,
    robots_online: 9,
    support_open: { new: 3, open: 2, waiting: 1, total: 6 },
    failed_renewals: { plans: 1, drivers: 2 },
    open_disputes: 1,
    outbox: { due: 4, failing: 1 },
    webhooks: { last_received_at: Date.UTC(2026, 10, 27, 11, 58), received_last_day: 31 },
    ...overrides,
  };
}
