import { ClientError } from '@portal/client';
import { ErrorCodes } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { PASSKEY_NOTICES, passkeyFailureNotice } from './passkey-failure';

const domError = (name: string) => Object.assign(new Error('the browser refused'), { name });
const server = (name: keyof typeof ErrorCodes) =>
  new ClientError({
    kind: ErrorCodes[name].kind,
    status: ErrorCodes[name].status,
    code: ErrorCodes[name].code,
    description: 'credential: technical words',
  });

describe('passkeyFailureNotice', () => {
  it.each([
    ['the person cancelled the prompt', domError('NotAllowedError'), PASSKEY_NOTICES.cancelled.title],
    ['the prompt was aborted', domError('AbortError'), PASSKEY_NOTICES.cancelled.title],
    ['the browser cannot', domError('NotSupportedError'), PASSKEY_NOTICES.unavailable.title],
    ['a removed or unknown passkey (401)', server('UNAUTHENTICATED'), PASSKEY_NOTICES.refused.title],
    ['an unverified address (code 32)', server('EMAIL_NOT_VERIFIED'), 'Email Verification Required'],
    ['a locked account (code 45)', server('ACCOUNT_LOCKED'), 'Account Locked'],
    ['a disabled account (403)', server('FORBIDDEN'), 'Login Error'],
  ])('%s', (_what, err, title) => {
    expect(passkeyFailureNotice(err).title).toBe(title);
  });

  it('tells what to do about a removed passkey', () => {
    expect(passkeyFailureNotice(server('UNAUTHENTICATED')).text).toMatch(/removed from your account/);
  });
});
