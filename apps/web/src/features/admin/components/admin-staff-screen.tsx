import type { StaffMember, StaffRole } from '@portal/contract';
import { Loader2Icon, MailIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { formatInstant, ROLE_LABELS } from '../admin-text';
import { useInviteStaffMutation, useSetStaffRoleMutation, useStaff } from '../api/admin-staff';
import { AdminCopyField } from './admin-copy-field';
import { AdminLoadError, AdminLoadingRows } from './admin-load-error';
import { AdminRoleSelect } from './admin-role-select';
import { AdminTableRegion } from './admin-table-region';

interface Invitation {
  email: string;
  role: StaffRole;
  link: string;
  expiresAt: number;
  created: boolean;
}

/** "Invite staff": an email and a role; the answer's enrolment link is shown to copy (and was mailed). */
function InviteStaffCard() {
  const invite = useInviteStaffMutation();
  const [email, setEmail] = React.useState('');
  const [role, setRole] = React.useState<StaffRole>('support');
  const [emailError, setEmailError] = React.useState<string>();
  const [roleError, setRoleError] = React.useState<string>();
  const [invitation, setInvitation] = React.useState<Invitation>();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invite.isPending) return;
    setRoleError(undefined);
    if (!email.trim()) {
      setEmailError('Email is required');
      return;
    }
    setEmailError(undefined);
    try {
      const answer = await invite.mutateAsync({ email: email.trim(), role });
      setInvitation({
        email: email.trim().toLowerCase(),
        role: answer.role,
        link: answer.link,
        expiresAt: answer.expires_at,
        created: answer.created,
      });
      setEmail('');
      toast.success('Invitation ready', { description: `The enrolment link was mailed to ${email.trim()}.` });
    } catch (err) {
      const onEmail = serverFieldError(err, 'email');
      const onRole = serverFieldError(err, 'role');
      setEmailError(onEmail);
      setRoleError(onRole);
      if (!onEmail && !onRole)
        toast.error('Invitation not sent', {
          description: err instanceof Error ? err.message : 'Please try again.',
          duration: ERROR_TOAST_MS,
        });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite staff</CardTitle>
        <CardDescription>
          The person gets a single-use link, valid for 24 hours, where they register the passkey they will sign in with.
          An existing account keeps its data and gains the role.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-start">
          <FormField id="invite-email" label="Email" error={emailError}>
            <Input
              {...fieldProps('invite-email', emailError)}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setEmailError(undefined);
              }}
            />
          </FormField>
          <FormField id="invite-role" label="Role" error={roleError}>
            <AdminRoleSelect {...fieldProps('invite-role', roleError)} value={role} onValueChange={setRole} />
          </FormField>
          <Button
            type="submit"
            className="sm:mt-[1.375rem]"
            disabled={invite.isPending}
            aria-busy={invite.isPending || undefined}
          >
            {invite.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
            Invite
          </Button>
        </form>
        {invitation && (
          <section aria-label="Enrolment link" className="grid gap-3 rounded-md border bg-muted/40 p-4">
            <p className="flex items-start gap-2 text-sm">
              <MailIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                {invitation.created ? 'A new account was made for ' : 'The existing account of '}
                <strong className="break-all">{invitation.email}</strong> as{' '}
                {ROLE_LABELS[invitation.role].toLowerCase()}. The link was mailed to them; you can also hand it over
                yourself. It works once, until {formatInstant(invitation.expiresAt)}.
              </span>
            </p>
            <AdminCopyField id="invite-link" label="Enrolment link" value={invitation.link} />
          </section>
        )}
      </CardContent>
    </Card>
  );
}

function RoleControls({ member, email }: { member: StaffMember; email: string }) {
  const setRole = useSetStaffRoleMutation();
  const [pending, setPending] = React.useState<StaffRole | null>(null);

  async function apply(role: StaffRole | null) {
    try {
      await setRole.mutateAsync({ userId: member.user_id, role });
      toast.success(role ? 'Role changed' : 'Role removed', {
        description: role ? `${email} is now ${ROLE_LABELS[role].toLowerCase()}.` : `${email} is no longer staff.`,
      });
    } catch (err) {
      toast.error(role ? 'Role not changed' : 'Role not removed', {
        description: err instanceof Error ? err.message : 'Please try again.',
        duration: ERROR_TOAST_MS,
      });
      return false;
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <AdminRoleSelect
        aria-label={`Role of ${email}`}
        className="h-8 w-32"
        value={member.role}
        onValueChange={(role) => role !== member.role && setPending(role)}
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        variant="default"
        title="Change this role?"
        description={
          pending
            ? `${email} becomes ${ROLE_LABELS[pending].toLowerCase()} (now ${ROLE_LABELS[member.role].toLowerCase()}). Their next call already has the new role.`
            : ''
        }
        confirmLabel="Change role"
        onConfirm={() => apply(pending)}
      />
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" aria-label={`Remove the role of ${email}`}>
            Remove role
          </Button>
        }
        title="Remove this role?"
        description={`${email} keeps their account as a customer but can no longer open the console. Their next call already goes without the role.`}
        confirmLabel="Remove role"
        onConfirm={() => apply(null)}
      />
    </div>
  );
}

function StaffTable({ staff }: { staff: StaffMember[] }) {
  return (
    <AdminTableRegion label="Staff table">
      <TableHeader>
        <TableRow>
          <TableHead>Staff member</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Passkeys</TableHead>
          <TableHead>Open invitation</TableHead>
          <TableHead>Last sign-in</TableHead>
          <TableHead>Change</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {staff.map((member) => (
          <TableRow key={member.user_id}>
            <TableCell className="p-2 align-top">
              <span className="block font-medium break-all">{member.email}</span>
              {member.name && <span className="block text-muted-foreground">{member.name}</span>}
            </TableCell>
            <TableCell className="p-2 align-top">{ROLE_LABELS[member.role]}</TableCell>
            <TableCell className="p-2 align-top">{member.passkeys}</TableCell>
            <TableCell className="p-2 align-top whitespace-nowrap">
              {member.invitation_expires_at ? `Until ${formatInstant(member.invitation_expires_at)}` : 'None'}
            </TableCell>
            <TableCell className="p-2 align-top whitespace-nowrap">{formatInstant(member.last_sign_in_at)}</TableCell>
            <TableCell className="p-2 align-top">
              <RoleControls member={member} email={member.email} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

/** Staff: who has which role, their passkeys and open invitations; invite, change or remove a role. */
export function AdminStaffScreen() {
  const staff = useStaff();
  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Staff</h1>
        <p className="text-muted-foreground">
          Accounts with a role in the back office. Roles apply only in a passkey session.
        </p>
      </div>
      <InviteStaffCard />
      <section aria-labelledby="staff-list-title" className="grid min-w-0 grid-cols-1 gap-3">
        <h2 id="staff-list-title" className="text-lg font-semibold">
          Staff members
        </h2>
        {staff.data ? (
          staff.data.length ? (
            <StaffTable staff={staff.data} />
          ) : (
            <p className="text-sm text-muted-foreground">No staff yet. Invite someone above.</p>
          )
        ) : staff.isError ? (
          <AdminLoadError
            title="The staff could not be loaded"
            error={staff.error}
            onRetry={() => void staff.refetch()}
          />
        ) : (
          <AdminLoadingRows label="Loading the staff" />
        )}
      </section>
    </>
  );
}
