import { describe, expect, it } from 'vitest';
import { describeIssues, jwt, loadEnglishMessages, useraction } from './index.ts';

// zod/mini loads no messages: without loadEnglishMessages() each of these would read "Invalid input".
loadEnglishMessages();

describe("zod's English messages where the contract names none", () => {
  const login = useraction.actions.login.request;
  it.each([
    [
      'a hub key',
      login,
      { user: { email: 'a@b.co', password: 'x' }, hub_public_key: 'k'.repeat(2049) },
      'hub_public_key: Too big: expected string to have <=2048 characters',
    ],
    ['a token', jwt, '', 'body: Too small: expected string to have >=1 characters'],
    [
      'a password',
      login,
      { user: { email: 'a@b.co', password: 42 } },
      'user.password: Invalid input: expected string, received number',
    ],
    [
      'a target',
      login,
      { user: { email: 'a@b.co', password: 'x' }, target: 'tv' },
      'target: Invalid option: expected one of "portal"|"hub"',
    ],
  ])('%s', (_name, schema, value, expected) => {
    const parsed = schema.safeParse(value);
    expect(parsed.success ? 'accepted' : describeIssues(parsed.error)).toBe(expected);
  });
});
