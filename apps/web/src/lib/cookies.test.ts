import { describe, expect, it } from 'vitest';
import { readCookie, serializeCookie } from './cookies';

describe('readCookie', () => {
  it.each([
    { cookies: '', name: 'a', expected: null },
    { cookies: 'a=1', name: 'a', expected: '1' },
    { cookies: 'b=2; a=1', name: 'a', expected: '1' },
    { cookies: 'ab=2; a=1', name: 'a', expected: '1' },
    { cookies: 'a=hello%20world', name: 'a', expected: 'hello world' },
    { cookies: 'a=50%', name: 'a', expected: '50%' },
    { cookies: 'a=', name: 'a', expected: '' },
    { cookies: 'junk; a=x', name: 'a', expected: 'x' },
    { cookies: 'b=2', name: 'a', expected: null },
  ])('$cookies -> $name = $expected', ({ cookies, name, expected }) => {
    expect(readCookie(cookies, name)).toBe(expected);
  });
});

describe('serializeCookie', () => {
  it.each([
    { name: 'a', value: '1', options: {}, expected: 'a=1' },
    {
      name: 'a',
      value: 'x y',
      options: { path: '/', maxAgeSeconds: 60, sameSite: 'Lax' as const },
      expected: 'a=x%20y; path=/; max-age=60; SameSite=Lax',
    },
    { name: 'a', value: '1', options: { secure: true }, expected: 'a=1; Secure' },
  ])('$name=$value', ({ name, value, options, expected }) => {
    expect(serializeCookie(name, value, options)).toBe(expected);
  });
});
