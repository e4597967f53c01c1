import { describe, expect, it } from 'vitest';
import { avatarUrl, emailHash, initialsOf, normaliseAvatarEmail, toHex } from './user-menu-avatar';

describe('normaliseAvatarEmail', () => {
  it.each([
    { email: 'MyEmailAddress@example.com ', expected: 'myemailaddress@example.com' },
    { email: '  a@b.co', expected: 'a@b.co' },
  ])('$email', ({ email, expected }) => {
    expect(normaliseAvatarEmail(email)).toBe(expected);
  });
});

describe('avatarUrl', () => {
  it.each([
    {
      base: 'https://www.gravatar.com/avatar',
      size: undefined,
      expected: 'https://www.gravatar.com/avatar/h?s=64&d=404',
    },
    { base: 'https://www.gravatar.com/avatar/', size: 128, expected: 'https://www.gravatar.com/avatar/h?s=128&d=404' },
  ])('$base size $size', ({ base, size, expected }) => {
    expect(avatarUrl(base, 'h', size)).toBe(expected);
  });
});

describe('toHex', () => {
  it.each([
    { bytes: [], expected: '' },
    { bytes: [0, 1, 15, 16, 255], expected: '00010f10ff' },
  ])('$bytes', ({ bytes, expected }) => {
    expect(toHex(new Uint8Array(bytes).buffer)).toBe(expected);
  });
});

describe('emailHash', () => {
  it.each([
    // Gravatar's documented example address, hashed with SHA-256.
    {
      email: ' MyEmailAddress@example.com ',
      expected: '84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee',
    },
    {
      email: 'myemailaddress@example.com',
      expected: '84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee',
    },
  ])('$email', async ({ email, expected }) => {
    expect(await emailHash(email)).toBe(expected);
  });
});

describe('initialsOf', () => {
  it.each([
    { name: 'Ada Lovelace', email: 'ada@example.com', expected: 'AL' },
    { name: 'ada', email: 'x@example.com', expected: 'A' },
    { name: 'Mary Ann  Evans', email: '', expected: 'ME' },
    { name: '  ', email: 'zoe@example.com', expected: 'Z' },
    { name: null, email: 'bob@example.com', expected: 'B' },
    { name: '', email: '', expected: '?' },
    { name: undefined, email: undefined, expected: '?' },
    { name: 'émile zola', email: '', expected: 'ÉZ' },
  ])('$name / $email -> $expected', ({ name, email, expected }) => {
    expect(initialsOf(name, email)).toBe(expected);
  });
});
