import { auth, useraction } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { refreshTokens, sessions } from '../../db/schema.ts';
import { freshDatabase, seedUser, type TestApp, testApp } from '../../test/harness.ts';

/**
 * Refresh races (issue 14 finding 11): a session has one live refresh token whatever the callers do
 * at once, and a password change leaves no other session alive, however refreshes interleave with it.
 */
let database: Database;
let t: TestApp;
beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database, { REFRESH_REUSE_GRACE_S: '30' });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

interface Pair {
  access_token: string;
  refresh_token: string;
}

async function signedIn() {
  const user = await seedUser(t);
  const res = await t.api.call(useraction, 'login', { user: { email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  return { ...user, pair: res.body.token_pair as Pair };
}

const refresh = (refresh_token: string) => t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token } });
const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string }).jti;
const sidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string }).sid;
const profile = (access: string, email: string) =>
  t.api.call(useraction, 'UserUpdate', {
    token: access,
    user: { email, name: 'Still Here', year_born: -1, country: 'France', company: '' },
  });

describe('parallel refreshes', () => {
  it('50 parallel refreshes with one refresh token leave the user signed in with one live token family', async () => {
    const s = await signedIn();
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(s.pair.refresh_token)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const pairs = answers.map((a) => a.body.tokenPair as Pair);
    // Every caller got the same child, not 50 chains.
    expect(new Set(pairs.map((p) => jtiOf(p.refresh_token))).size).toBe(1);
    const sid = sidOf(s.pair.refresh_token);
    const family = await t.app.deps.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sid));
    expect(family).toHaveLength(2);
    expect(family.filter((r) => r.rotatedAt === null).map((r) => r.jti)).toEqual([
      jtiOf(pairs[0]?.refresh_token ?? ''),
    ]);
    // Any of the answers carries on the session, and the user is signed in.
    const next = await refresh(pairs[49]?.refresh_token ?? '');
    expect(next.status).toBe(200);
    expect((await profile((next.body.tokenPair as Pair).access_token, s.email)).status).toBe(200);
  });

  it('a replay after the grace window still revokes the whole family', async () => {
    const s = await signedIn();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(s.pair.refresh_token)));
    const child = answers[0]?.body.tokenPair as Pair;
    t.clock.advance(31_000);
    expect((await refresh(s.pair.refresh_token)).status).toBe(401);
    expect((await refresh(child.refresh_token)).status).toBe(401);
    expect((await profile(child.access_token, s.email)).status).toBe(401);
  });
});

describe('a password change racing refreshes', () => {
  it('a password change racing a refresh leaves no session that outlives it', async () => {
    const s = await signedIn();
    const other = await t.api.call(useraction, 'login', { user: { email: s.email, password: s.password } });
    const otherPair = other.body.token_pair as Pair;
    const [change, ...refreshes] = await Promise.all([
      t.api.call(useraction, 'UserUpdatePassword', {
        token: s.pair.access_token,
        tokentype: 1,
        user: { email: s.email, password: s.password },
        password: 'Raced-Change-55$',
      }),
      ...Array.from({ length: 20 }, () => refresh(otherPair.refresh_token)),
    ]);
    expect(change?.status).toBe(200);
    // Whatever each refresh answered, nothing of the other session works now.
    const [otherSession] = await t.app.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sidOf(otherPair.refresh_token)));
    expect(otherSession?.revokedAt).not.toBeNull();
    for (const answer of refreshes) {
      if (answer.status !== 200) continue;
      const pair = answer.body.tokenPair as Pair;
      expect((await refresh(pair.refresh_token)).status).toBe(401);
      expect((await profile(pair.access_token, s.email)).status).toBe(401);
    }
    expect((await refresh(otherPair.refresh_token)).status).toBe(401);
    // The session that changed the password goes on.
    expect((await refresh(s.pair.refresh_token)).status).toBe(200);
  });
});
