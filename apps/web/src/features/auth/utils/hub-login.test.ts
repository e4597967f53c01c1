import { describe, expect, it } from 'vitest';
import { decodeHubKey, hubLoginProblem, isLoopbackRedirect } from './hub-login';

const jwk = JSON.stringify({
  kty: 'EC',
  crv: 'P-256',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
});
const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const key = b64url(jwk);

describe('decodeHubKey', () => {
  it.each([
    ['a base64url JWK', key, jwk],
    ['a padded base64url JWK', `${Buffer.from(jwk).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')}`, jwk],
    ['nothing', undefined, undefined],
    ['an empty string', '', undefined],
    ['characters outside base64url', 'abc$def', undefined],
    ['base64url of text that is not JSON', b64url('hello'), undefined],
    ['base64url of a JSON array', b64url('[1,2]'), undefined],
    ['base64url of JSON without kty', b64url('{"crv":"P-256"}'), undefined],
    ['base64url of bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url'), undefined],
  ])('%s', (_label, input, expected) => {
    expect(decodeHubKey(input)).toBe(expected);
  });
});

describe('hubLoginProblem', () => {
  it.each([
    ['a loopback IPv4 callback', 'http://127.0.0.1:51234/callback', key, undefined],
    ['a localhost callback', 'http://localhost:8080/cb', key, undefined],
    // an IPv6 literal cannot be allowed by the CSP form-action, so the handover could not post there
    ['an IPv6 loopback callback', 'http://[::1]:8080/cb', key, /^Refused/],
    ['no redirect', undefined, key, /does not say where to return/],
    ['a remote host', 'http://evil.example/callback', key, /^Refused/],
    ['https to a remote host', 'https://127.0.0.1.evil.example/cb', key, /^Refused/],
    ['https loopback (the hub listens on plain http)', 'https://127.0.0.1:5000/cb', key, /^Refused/],
    ['credentials in the address', 'http://user:pw@127.0.0.1:5000/cb', key, /^Refused/],
    ['a javascript: address', 'javascript:alert(1)', key, /^Refused/],
    ['a relative address', '/dashboard', key, /^Refused/],
    ['a missing key', 'http://127.0.0.1:5000/cb', undefined, /missing its key/],
    ['a damaged key', 'http://127.0.0.1:5000/cb', 'not*base64', /missing its key/],
  ])('%s', (_label, redirect, hubKey, expected) => {
    const problem = hubLoginProblem(redirect, hubKey);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});

describe('isLoopbackRedirect', () => {
  it.each([
    ['http://127.0.0.1:5123/callback', true],
    ['http://localhost:5123/callback', true],
    ['http://[::1]:5123/callback', false],
    ['https://127.0.0.1:5123/callback', false],
    ['http://evil.example/callback', false],
    ['http://127.0.0.1.evil.example/callback', false],
    ['http://user:pw@127.0.0.1:1/x', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s', (url, expected) => expect(isLoopbackRedirect(url)).toBe(expected));
});
