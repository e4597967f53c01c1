import { PASSWORD_MAX, PASSWORD_MIN } from '@portal/contract';

/**
 * The sign-in and forgot-password forms of spec/000 §2, with the spec's exact messages. Written
 * without zod, unlike the other forms of auth-forms.ts: they are on the sign-in page, which loads no
 * schema library (docs/decisions/025). Each answers zod's shape (`safeParse` with `issues`), so the
 * forms and their tests read them as they read the others.
 */

export interface Issue {
  path: string[];
  message: string;
}
export type Checked<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

function checked<T>(data: T, issues: Issue[]): Checked<T> {
  return issues.length ? { success: false, error: { issues } } : { success: true, data };
}

/**
 * An address as zod's `z.email()` accepts one: a local part of letters, digits and `_'+-.` that
 * neither starts with a dot nor has two in a row and ends on a letter, digit, `_`, `+` or `-`; then
 * dot-separated labels that start with a letter or digit, the last of two or more letters.
 */
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

export interface LoginForm {
  email: string;
  password: string;
  rememberMe: boolean;
}

export const loginFormSchema = {
  safeParse(form: LoginForm): Checked<LoginForm> {
    const issues: Issue[] = [];
    if (!isEmail(form.email)) issues.push({ path: ['email'], message: 'Invalid email address' });
    if (form.password.length < PASSWORD_MIN)
      issues.push({ path: ['password'], message: 'Password must be at least 8 characters' });
    else if (form.password.length > PASSWORD_MAX - 1)
      issues.push({ path: ['password'], message: 'Password must be less than 256 characters' });
    return checked(form, issues);
  },
};

export const forgotPasswordSchema = {
  safeParse(form: { email: string }): Checked<{ email: string }> {
    const email = form.email.trim();
    if (email.length === 0) return checked(form, [{ path: ['email'], message: 'Please enter an email address' }]);
    if (!isEmail(email)) return checked(form, [{ path: ['email'], message: 'Please enter a valid email address' }]);
    return checked({ email }, []);
  },
};
