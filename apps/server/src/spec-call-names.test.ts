import { type Client, createClient } from '@portal/client';
import { ErrorCodes } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client.ts';
import { freshDatabase, type TestApp, testApp } from './test/harness.ts';

/**
 * The call names of the two specifications, as a hub or any other client built against them sends
 * them (docs/decisions/062). Copied here from the specs' section 7, which live outside this
 * repository: every action of spec/000 §7's tables and lists, every action of spec/001 §7's table,
 * and the upper-case actions its prose names. The paths are ours where the spec shows none (it
 * names the base paths only).
 */
const SPEC_CALLS: readonly (readonly [section: string, path: string, action: string])[] = [
  ['spec/000 §7 POST /api/useraction', '/api/useraction', 'login'],
  ['spec/000 §7 POST /api/useraction', '/api/useraction', 'logout'],
  ['spec/000 §7 POST /api/useraction', '/api/useraction', 'get-self'],
  ['spec/000 §7 POST /api/auth', '/api/auth', 'refresh-access-token'],
  ['spec/000 §7 POST /api/auth', '/api/auth', 'revoke-token-pair'],
  ['spec/000 §7 account actions', '/api/useraction', 'UserForgotPassword'],
  ['spec/000 §7 account actions', '/api/useraction', 'UserChangePassword'],
  ['spec/000 §7 account actions', '/api/useraction', 'UserUpdatePassword'],
  ['spec/000 §7 account actions', '/api/useraction', 'UserUpdate'],
  ['spec/000 §7 account actions', '/api/useraction', 'UserDelete'],
  ['spec/001 §7 Payment', '/api/stripe', 'GetActiveUserSubscription'],
  ['spec/001 §7 Payment', '/api/stripe', 'GetProducts'],
  ['spec/001 §7 Payment', '/api/stripe', 'GetCustomerID'],
  ['spec/001 §7 Payment', '/api/stripe', 'ListSubscriptions'],
  ['spec/001 §7 Payment', '/api/stripe', 'GetSubscription'],
  ['spec/001 §7 Payment', '/api/stripe', 'HandlePurchase'],
  ['spec/001 §7 Payment', '/api/stripe', 'CreateBillingPortalSession'],
  ['spec/001 §7 Time', '/api/dial_manager', 'CHECK_REMAINING_TIME'],
  ['spec/001 §7 Time', '/api/dial_manager', 'ADD_TIME'],
  ['spec/001 §7 Time', '/api/dial_manager', 'UPDATE_TIME'],
  ['spec/001 §7 Licence', '/api/license', 'GetLicences'],
  ['spec/001 §7 Robot', '/api/robots', 'GetRobots'],
  ['spec/001 §7 Asset', '/api/assets', 'GetAll'],
  ['spec/001 §7 Asset', '/api/assets', 'GetDownload'],
  ['spec/001 §7 Flex slots', '/api/flexible_license', 'GetSlots'],
  ['spec/001 §7 Flex slots', '/api/flexible_license', 'UpdateSlots'],
  ['spec/001 §7 Flex slots', '/api/flexible_license', 'ClearSlots'],
  ['spec/001 §7 other licence actions', '/api/license', 'BUYASSET'],
  ['spec/001 §7 other licence actions', '/api/license', 'SHARELICENSE'],
  ['spec/001 §7 other licence actions', '/api/license', 'STOPSHAREDLICENSE'],
  ['spec/001 §7 other licence actions', '/api/license', 'GETSHAREDLICENSES'],
  ['spec/001 §7 robot actions', '/api/robots', 'REGISTERSIM'],
  ['spec/001 §7 robot actions', '/api/robots', 'UNREGISTER'],
  ['spec/001 §7 robot actions', '/api/robots', 'UPDATEROBOT'],
  ['spec/001 §7 robot actions', '/api/robots', 'UPDATEMODALITIES'],
  ['spec/001 §7 dial manager actions', '/api/dial_manager', 'CLEAR_SLOTS'],
  ['spec/001 §7 dial manager actions', '/api/dial_manager', 'GET_SLOTS'],
  ['spec/001 §7 dial manager actions', '/api/dial_manager', 'UPDATE_SLOTS'],
];

let database: Database;
let t: TestApp;
let client: Client;
beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = createClient({ baseUrl: address, fetch: globalThis.fetch });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

describe("the specs' call names", () => {
  // A body with the action alone: a known action is refused for its missing fields or session,
  // never as unknown, and changes nothing.
  it.each(SPEC_CALLS)('%s: %s %s is known to the server', async (_section, path, action) => {
    const answer = await client.send(path, { action });
    expect(answer.status).not.toBe(404);
    expect((answer.json as { error?: { Code?: number } }).error?.Code).not.toBe(ErrorCodes.UNKNOWN_ACTION.code);
  });

  it('an action outside the specs and the contract is unknown: the check above can fail', async () => {
    const answer = await client.send('/api/license', { action: 'GetLicensesAndMore' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: {
        Code: ErrorCodes.UNKNOWN_ACTION.code,
        Description: "action: Unknown action 'GetLicensesAndMore' for /api/license",
      },
    });
  });
});
