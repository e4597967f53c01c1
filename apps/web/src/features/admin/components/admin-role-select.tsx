import { STAFF_ROLES, type StaffRole } from '@portal/contract';
import type * as React from 'react';
import { NativeSelect } from '@/components/ui/native-select';
import { ROLE_LABELS } from '../admin-text';

/** A role picker: Support, Finance, Admin. */
export function AdminRoleSelect({
  value,
  onValueChange,
  ...props
}: Omit<React.ComponentProps<'select'>, 'value' | 'onChange'> & {
  value: StaffRole;
  onValueChange: (role: StaffRole) => void;
}) {
  return (
    <NativeSelect value={value} onChange={(e) => onValueChange(e.target.value as StaffRole)} {...props}>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </NativeSelect>
  );
}
