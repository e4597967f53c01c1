import { zodResolver } from '@hookform/resolvers/zod';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PasswordPair } from './password-pair';
import {
  changePasswordRules,
  type PasswordPairRules,
  passwordPairIssuesAt,
  resetPasswordRules,
} from './password-pair-rules';

const EMAIL = 'ada.lovelace1@example.com';
const SAME_AS_EMAIL = 'Ada.Lovelace1@Example.com';
const CURRENT = 'Old-Pass-1!';
const RULES = { reset: resetPasswordRules, change: changePasswordRules };
const COMPOSITE = 'Password must contain: 1 uppercase, 1 number and 1 special character.';

interface PairForm {
  password: string;
  repeat: string;
}

/** A form holding only the pair, checked live with one set of rules, as the reset and change forms are. */
function PairOnly({ rules, hint }: { rules: PasswordPairRules; hint?: string }) {
  const schema = z.object({ password: z.string(), repeat: z.string() }).check(
    z.superRefine((form, ctx) => {
      const issues = rules({ ...form, email: EMAIL, currentPassword: CURRENT });
      for (const issue of passwordPairIssuesAt(issues, { password: 'password', repeat: 'repeat' }))
        ctx.addIssue({ code: 'custom', ...issue });
    }),
  );
  const form = useForm<PairForm>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { password: '', repeat: '' },
  });
  return (
    <form noValidate>
      <PasswordPair
        form={form}
        password={{ name: 'password', id: 'pair-new', label: 'New password', toggleLabel: 'Show new password' }}
        repeat={{ name: 'repeat', id: 'pair-repeat', label: 'Repeat new password', toggleLabel: 'Show repeat' }}
        hint={hint}
        onPasswordChange={() => {
          if (form.getFieldState('repeat').isDirty) void form.trigger('repeat');
        }}
      />
    </form>
  );
}

const newPassword = () => screen.getByLabelText('New password') as HTMLInputElement;
const repeat = () => screen.getByLabelText('Repeat new password') as HTMLInputElement;

async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    fireEvent.change(input, { target: { value } });
  });
}

/** The message under a field, or null. */
const errorOf = (input: HTMLInputElement) => document.getElementById(`${input.id}-error`)?.textContent ?? null;

describe('PasswordPair', () => {
  it('two new-password fields with their labels, ids, toggles and hint wired for screen readers', () => {
    render(<PairOnly rules={resetPasswordRules} hint="At least 8 characters." />);
    expect([newPassword().id, repeat().id]).toEqual(['pair-new', 'pair-repeat']);
    for (const input of [newPassword(), repeat()]) {
      expect(input.type).toBe('password');
      expect(input.autocomplete).toBe('new-password');
      expect(input.getAttribute('aria-invalid')).toBeNull();
    }
    expect(newPassword().getAttribute('aria-describedby')).toBe('pair-new-hint');
    expect(document.getElementById('pair-new-hint')?.textContent).toBe('At least 8 characters.');
    expect(repeat().getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(newPassword().type).toBe('text');
    expect(screen.getByRole('button', { name: 'Show new password' }).getAttribute('aria-pressed')).toBe('true');
    expect(repeat().type).toBe('password');
  });

  it('an error replaces the hint and names the field invalid; the repeat is re-checked as the password changes', async () => {
    render(<PairOnly rules={resetPasswordRules} hint="At least 8 characters." />);
    await type(newPassword(), 'short');
    expect(errorOf(newPassword())).toBe('Password must be at least 8 characters');
    expect(newPassword().getAttribute('aria-invalid')).toBe('true');
    expect(newPassword().getAttribute('aria-describedby')).toBe('pair-new-error');
    expect(document.getElementById('pair-new-hint')).toBeNull();
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Password must be at least 8 characters']);

    await type(newPassword(), 'Robot-Pass-42!');
    await type(repeat(), 'Robot-Pass-42!');
    expect([errorOf(newPassword()), errorOf(repeat())]).toEqual([null, null]);
    expect(newPassword().getAttribute('aria-describedby')).toBe('pair-new-hint');
    await type(newPassword(), 'Robot-Pass-43!');
    expect(errorOf(repeat())).toBe('Passwords do not match');
    expect(repeat().getAttribute('aria-invalid')).toBe('true');
    expect(repeat().getAttribute('aria-describedby')).toBe('pair-repeat-error');
  });

  // spec/000 §5, word for word: the reset form (sign-up words it the same) and the change form.
  // Each field shows its first problem.
  it.each<[keyof typeof RULES, string, string, [string | null, string | null]]>([
    ['reset', 'Robot', 'Robot', ['Password must be at least 8 characters', null]],
    ['reset', 'robot-pass-42!', 'robot-pass-42!', ['Password must contain at least one uppercase letter', null]],
    ['reset', 'ROBOT-PASS-42!', 'ROBOT-PASS-42!', ['Password must contain at least one lowercase letter', null]],
    ['reset', 'Robot-Pass-xx!', 'Robot-Pass-xx!', ['Password must contain at least one number', null]],
    ['reset', 'RobotPass42', 'RobotPass42', ['Password must contain at least one special character', null]],
    ['reset', SAME_AS_EMAIL, SAME_AS_EMAIL, ['Password must not be the same as email', null]],
    ['reset', 'Robot-Pass-42!', 'Robot-Pass-43!', [null, 'Passwords do not match']],
    ['change', 'Robot', 'Robot', ['Password must be at least 8 characters.', null]],
    ['change', 'robot-pass-42!', 'robot-pass-42!', [COMPOSITE, null]],
    ['change', 'Robot-Pass-xx!', 'Robot-Pass-xx!', [COMPOSITE, null]],
    ['change', 'RobotPass42', 'RobotPass42', [COMPOSITE, null]],
    ['change', CURRENT, CURRENT, ['New password cannot be the same as the current password.', null]],
    ['change', SAME_AS_EMAIL, SAME_AS_EMAIL, ['Password must not be the same as email.', null]],
    ['change', 'Robot-Pass-42!', 'Robot-Pass-43!', [null, 'Passwords do not match.']],
  ])('%s form: "%s" repeated as "%s"', async (form, password, repeated, [passwordMessage, repeatMessage]) => {
    render(<PairOnly rules={RULES[form]} />);
    await type(newPassword(), password);
    await type(repeat(), repeated);
    expect([errorOf(newPassword()), errorOf(repeat())]).toEqual([passwordMessage, repeatMessage]);
  });

  it('a valid pair shows nothing, in either wording', async () => {
    for (const rules of [resetPasswordRules, changePasswordRules]) {
      const { unmount } = render(<PairOnly rules={rules} />);
      await type(newPassword(), 'Robot-Pass-42!');
      await type(repeat(), 'Robot-Pass-42!');
      expect(screen.queryAllByRole('alert')).toEqual([]);
      unmount();
    }
  });
});
