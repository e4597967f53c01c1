import { randomUUID } from 'node:crypto';
import { type Client, refreshingTokens } from '@portal/client';
import { type PublicUser, type TokenPair, useraction } from '@portal/contract';
import { linkIn, readMail } from './outbox.ts';

export interface Account {
  email: string;
  password: string;
  name: string;
}

export function uniqueEmail(label = 'test'): string {
  return `${label}-${randomUUID().slice(0, 12)}@example.test`;
}

/**
 * A verified account, made as a person makes one: UserRegister, then the token of the emailed
 * verification link through UserVerifyEmail. `dataDir` is the data folder of the server `client`
 * talks to (its outbox is read).
 */
export async function createVerifiedUser(
  client: Client,
  dataDir: string,
  opts: { email?: string; name?: string; password: string },
): Promise<Account> {
  const email = opts.email ?? uniqueEmail();
  const name = opts.name ?? 'Eve Tester';
  await client.call(useraction, 'UserRegister', {
    user: {
      email,
      password: opts.password,
      name,
      year_born: 1990,
      country: 'United Kingdom',
      company: 'Test Robotics',
      marketing: false,
      termsagreed: true,
    },
  });
  const link = linkIn(await readMail(dataDir, email, { subject: /\/auth\/verify\// }), '/auth/verify/');
  await client.call(useraction, 'UserVerifyEmail', { token: decodeURIComponent(link.split('/').at(-1) as string) });
  return { email, password: opts.password, name };
}

export interface ApiSession {
  user: PublicUser;
  /** the pair the sign-in answered (the session may rotate it later) */
  pair: TokenPair;
  /** the client signed in as this user, renewing its own tokens in memory */
  api: Client;
}

/** Signs in over the API as the portal's sign-in does (target portal), with a session of its own. */
export async function signInByApi(client: Client, email: string, password: string): Promise<ApiSession> {
  const answer = await client.call(useraction, 'login', { user: { email, password }, use_token_pairs: true });
  if (answer.target !== 'portal') throw new Error(`login answered target ${answer.target}`);
  let stored: TokenPair = answer.token_pair;
  const tokens = refreshingTokens({
    client,
    store: {
      read: () => stored,
      write: (pair) => {
        stored = pair;
      },
      end: () => {},
    },
  });
  return { user: answer.user, pair: answer.token_pair, api: client.withTokens(tokens) };
}
