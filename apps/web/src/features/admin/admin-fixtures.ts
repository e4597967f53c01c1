import {
  type ApiKeyView,
  type AuditEntryView,
  type CustomerView,
  type InboxRequest,
  type InboxRequestWithThread,
  PERMISSIONS,
  type Permission,
  roleCan,
  type StaffMember,
  type StaffRole,
} from '@portal/contract';
import { OK } from '@/test/fake-server';
import type { StaffMe } from './api/admin-me';

/** Stand-ins for the admin service's answers in the web tests (shapes of packages/contract/src/admin.ts). */

export function staffMe(role: StaffRole, overrides: Partial<StaffMe> = {}): StaffMe {
  return {
    user_id: 'u-staff',
    name: 'Grace',
    email: 'grace@example.com',
    role,
    permissions: (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleCan(role, p)),
    legacy_key_set: false,
    goodwill_max_minutes: 120,
    session_expires_at: 0,
    error: OK,
    ...overrides,
  };
}

export function staffMember(overrides: Partial<StaffMember> = {}): StaffMember {
  return {
    user_id: '11111111-1111-4111-8111-111111111111',
    email: 'ada@example.com',
    name: 'Ada',
    role: 'support',
    passkeys: 1,
    invitation_expires_at: 0,
    last_sign_in_at: 0,
    ...overrides,
  };
}

export function apiKey(overrides: Partial<ApiKeyView> = {}): ApiKeyView {
  return {
    key_id: '22222222-2222-4222-8222-222222222222',
    name: 'Nightly sync',
    role: 'support',
    prefix: 'rpk_abcd',
    created_at: Date.UTC(2026, 10, 1, 9, 30),
    last_used_at: 0,
    revoked_at: 0,
    ...overrides,
  };
}

export function auditEntry(seq: number, overrides: Partial<AuditEntryView> = {}): AuditEntryView {
  return {
    seq,
    at: Date.UTC(2026, 10, 20, 12, 0) + seq * 60_000,
    actor_kind: 'staff',
    actor_id: 'u-staff',
    actor_label: 'grace@example.com',
    subject_user_id: '',
    subject_email: '',
    kind: 'change',
    action: 'staff.add',
    target: 'user:u-1',
    fields: ['staff_role'],
    changes: { staff_role: { before: null, after: 'support' } },
    ip: '127.0.0.1',
    user_agent: 'Mozilla/5.0',
    reason: '',
    details: {},
    anonymised: false,
    ...overrides,
  };
}

export function inboxRequest(overrides: Partial<InboxRequest> = {}): InboxRequest {
  return {
    ticket_id: 'SR-ABCD-EFGH',
    category: 'technical',
    subject: 'Robot will not pair',
    status: 'new',
    customer_user_id: '33333333-3333-4333-8333-333333333333',
    customer_email: 'casey@example.com',
    assignee_user_id: '',
    assignee_email: '',
    created_at: Date.UTC(2026, 10, 20, 9, 0),
    updated_at: Date.UTC(2026, 10, 20, 9, 0),
    last_message_at: Date.UTC(2026, 10, 20, 9, 0),
    messages: 1,
    ...overrides,
  };
}

export function supportTicket(overrides: Partial<InboxRequestWithThread> = {}) {
  const request: InboxRequestWithThread = {
    ...inboxRequest(),
    robot_model: '',
    thread: [{ author: 'customer', author_email: 'casey@example.com', body: 'It shows no code.', at: 1 }],
    ...overrides,
  };
  return {
    request,
    customer: {
      profile: {
        user_id: request.customer_user_id,
        email: request.customer_email,
        name: 'Casey',
        year_born: 1990,
        country: 'DE',
        marketing: false,
        termsagreed: true,
        company: 'Acme',
        profession: '',
        join_date: '2026-01-01',
        email_validated: true,
        disabled: false,
      },
      tier: 'Standard' as const,
      subscriptions: { user_subscriptions: [], robot_driver_subscriptions: [] },
      robots: [],
      licenses: { email: request.customer_email, asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] },
      payments: [],
    },
    error: OK,
  };
}

export function customerView(overrides: Partial<CustomerView> = {}): CustomerView {
  return {
    profile: {
      user_id: '33333333-3333-4333-8333-333333333333',
      email: 'casey@example.com',
      name: 'Casey',
      company: 'Acme',
      country: 'DE',
      profession: '',
      email_verified: true,
      disabled_at: 0,
      joined_at: Date.UTC(2026, 0, 1),
      last_active_at: 0,
      staff_role: null,
    },
    tier: 'Standard',
    subscriptions: [],
    robot_driver_subscriptions: [],
    licenses: { email: 'casey@example.com', asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] },
    slots: { plan: 1, granted: null, effective: 1 },
    robots: [],
    time: {
      total_time: 90,
      total_perishable_time: 60,
      used_perishable_time: 0,
      total_durable_time: 30,
      used_durable_time: 0,
      remaining_yearly_time: 0,
      has_infinite_time: false,
      time_status: '',
      warning_message: '',
      current_period_start: 0,
      current_period_end: 0,
      days_until_next_allocation: 0,
      yearly_subscription_end: 0,
      total_yearly_allocation: 0,
      total_yearly_used: 0,
      subscription_type: '',
      payment_failed_at: 0,
    },
    ledger: [],
    usage: {
      from: '2026-10-22',
      to: '2026-11-20',
      time_zone: 'UTC',
      total_minutes: 0,
      robots: [],
      usage: [],
      events: [],
    },
    payments_visible: false,
    payments: [],
    sessions: [],
    passkeys: [],
    support_requests: [],
    audit: [],
    ...overrides,
  };
}

export function customerPayment(overrides: Partial<CustomerView['payments'][number]> = {}) {
  return {
    payment_id: '55555555-5555-4555-8555-555555555555',
    user_email: 'casey@example.com',
    kind: 'checkout',
    description: 'Robot licence',
    amount: 4900,
    currency: 'gbp',
    status: 'paid',
    refunded_amount: 0,
    created_at: Date.UTC(2026, 10, 1),
    session_id: '',
    revoked: false,
    payment_intent_id: '',
    refunds: [],
    dispute_status: '' as const,
    ...overrides,
  } as CustomerView['payments'][number];
}
