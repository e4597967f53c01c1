import { ClientError } from '@portal/client';
import { describe, expect, it } from 'vitest';
import { PASSKEY_ADD_FAILED, passkeyAddFailure, sessionTitle } from './account-security';

const domError = (name: string) => Object.assign(new Error('browser said no'), { name });
const serverError = (kind: ConstructorParameters<typeof ClientError>[0]['kind'], status: number) =>
  new ClientError({ kind, status, description: 'credential: something technical' });

describe('sessionTitle', () => {
  it.each([
    [{ browser: 'Chrome', os: 'macOS' }, 'Chrome on macOS'],
    [{ browser: 'Node.js', os: 'Unknown system' }, 'Node.js'],
    [{ browser: 'Unknown browser', os: 'Linux' }, 'Unknown browser on Linux'],
  ])('%o -> %s', (session, title) => {
    expect(sessionTitle(session)).toBe(title);
  });
});

describe('passkeyAddFailure', () => {
  it.each([
    ['cancelled or timed out in the browser', domError('NotAllowedError'), /cancelled or timed out/],
    ['aborted', domError('AbortError'), /cancelled or timed out/],
    ['the device has one already', domError('InvalidStateError'), /already holds a passkey/],
    ['the device cannot', domError('NotSupportedError'), /cannot make a passkey/],
    ['registered already (server)', serverError('conflict', 409), /registered already/],
    ['too many attempts (server)', serverError('rate_limited', 429), /Too many attempts/],
    ['passkeys off (server)', serverError('forbidden', 403), /not available/],
    ['refused by the server', serverError('validation', 400), new RegExp(PASSKEY_ADD_FAILED.replace('.', '\\.'))],
    ['anything else', new Error('boom'), new RegExp(PASSKEY_ADD_FAILED.replace('.', '\\.'))],
  ])('%s', (_what, err, message) => {
    expect(passkeyAddFailure(err)).toMatch(message);
  });

  it('never shows the server technical description', () => {
    expect(passkeyAddFailure(serverError('validation', 400))).not.toMatch(/technical/);
  });
});
