import {
  type ApiKeyView,
  type AuditEntryView,
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
