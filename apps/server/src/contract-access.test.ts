import { randomBytes } from 'node:crypto';
import {
  AssetType,
  assets,
  license,
  ONE_DAY_S,
  payment,
  robots,
  security,
  support,
  useraction,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetRepository } from './modules/assets/assets.repository.ts';
import { billingPage, buy, PLAN, payments, planRow } from './modules/subscriptions/subscriptions.test-helpers.ts';
import { type MountedAction, mountedActions, targetFields } from './test/contract-table.ts';
import { changedTables, rowsOfUser, snapshot } from './test/db-snapshot.ts';
import {
  as,
  closeApp,
  grantLicense,
  hardwareHash,
  nextIp,
  roboticsConfig,
  type SignedIn,
  signIn,
} from './test/fixtures.ts';
import { type Answer, freshDatabase, seedUser, type TestApp, testApp } from './test/harness.ts';
import { SoftwareAuthenticator } from './test/software-authenticator.ts';
import { type Names, VALID_BODIES } from './test/valid-bodies.ts';

/**
 * Access control, generated from the contract (issue 14): for every action that takes an id or an
 * email (test/contract-table.ts targetFields), user B aims a well-formed request at an object of
 * user A, and gets a refusal while A's rows stay as they were. A field that names an id or an email
 * and is neither in the matrix nor exempted (with a reason) fails the test, so a new action is
 * added here the day it is written. The matrix is printed. It runs on PGlite and on PostgreSQL.
 */

type Outcome =
  /** a 4xx */
  | 'refused'
  /** 200, and A's object is left out of the answer */
  | 'left out'
  /** 200 by design: the same answer as for anyone (no account oracle), A's rows unchanged */
  | 'same answer for any address'
  /** 200 by design: dialling another's robot meters the caller's own time */
  | "meters the caller's own time";

interface Row {
  label: string;
  /** the fields of targetFields this row aims at A */
  fields: string[];
  /** what of A's it names */
  object: string;
  outcome: Outcome;
  /** tables of A's that change by design (a reset mail's token) */
  allowed?: string[];
  send: () => Promise<Answer>;
  check?: (answer: Answer) => void;
}

/** Fields that name no object of another user, with the reason. */
const EXEMPT: Record<string, string> = {
  '/api/stripe HandlePurchase session.products[].id': 'a catalogue product: the same for everyone',
  '/api/stripe HandlePurchase session.products[].selected_price_id': 'a catalogue price: the same for everyone',
  '/api/license BUYASSET asset_id': 'a catalogue asset (operators only; the email row is its access check)',
  '/api/license SHARELICENSE recipient_email':
    "whom the caller shares its own license with: any address (docs/decisions/023); A's license is the license_id row",
  '/api/robots GetRobots robot_licenses[].asset_id': 'not read: robots are found by robot_id only',
  '/api/assets GetDownload asset_id': 'a catalogue asset: the same for every signed-in user',
  '/api/assets GetDownload assets.id': 'a catalogue asset: the same for every signed-in user',
  '/api/assets GetDownload assets.artifacts[].asset_id': 'a catalogue asset: the same for every signed-in user',
  '/api/security AddPasskey credential.id':
    "the id of the credential being added: one registered already, A's included, is refused with 409 (security.test.ts)",
  '/api/security StaffEnrol credential.id':
    "the id of the credential being registered, like AddPasskey's; the link's token is the permission (admin.test.ts)",
  '/api/admin RevokeApiKey key_id':
    "an API key, no customer's object: staff only, and B (a customer) is answered the unknown-route 404 (admin-roles.test.ts)",
  ...Object.fromEntries(
    ['ListSupportRequests', 'AssignSupportRequest'].map((name) => [
      `/api/admin/support ${name} assignee_user_id`,
      "a staff member, no customer's object: staff only, and B (a customer) is answered the unknown-route 404 (support-admin.test.ts)",
    ]),
  ),
  ...Object.fromEntries(
    ['WithdrawRelease', 'RestoreRelease'].map((name) => [
      `/api/admin/releases ${name} artifact_id`,
      "a hub build, no customer's object: staff only, and B (a customer) is answered the unknown-route 404 (admin-releases.test.ts)",
    ]),
  ),
  '/api/security PasskeySignIn credential.id':
    "names a credential, not a caller; an answer naming A's credential without A's key fails its signature (security.test.ts)",
  ...Object.fromEntries(
    ['/api/dial_manager UPDATE_SLOTS', '/api/flexible_license UpdateSlots'].flatMap((label) => [
      [`${label} user_slots[].slot_id`, "a slot number of the caller's own slots"],
      [`${label} user_slots[].license_id`, 'must be empty: the server makes the licenses'],
      [`${label} user_slots[].robot_id`, 'a catalogue robot model, not a robot'],
    ]),
  ),
};

/** The Names key a target field is filled from. */
const NAME_OF_FIELD: Record<string, keyof Names> = {
  email: 'email',
  user_email: 'email',
  'user.email': 'email',
  user_id: 'userId',
  robot_id: 'robotId',
  'robot_licenses[].robot_id': 'robotId',
  license_id: 'licenseId',
  pair_code: 'pairCode',
  subscription_id: 'subscriptionId',
  session_id: 'sessionId',
  payment_id: 'paymentId',
  customer_id: 'customerId',
  recipient_email: 'recipient',
  sign_in_id: 'signInId',
  passkey_id: 'passkeyId',
  ticket_id: 'ticketId',
};

const OBJECT_OF_NAME: Record<keyof Names, string> = {
  email: "A's address",
  userId: "A's user id",
  token: '',
  refreshToken: '',
  robotId: "A's robot",
  licenseId: "A's paired license",
  pairCode: "A's pairing code",
  subscriptionId: "A's subscription",
  sessionId: "A's checkout session",
  paymentId: "A's payment",
  customerId: "A's payment customer",
  recipient: "A's share (its recipient)",
  signInId: "A's session (a sign-in)",
  passkeyId: "A's passkey",
  ticketId: "A's support request",
};

let t: TestApp & { database: Awaited<ReturnType<typeof freshDatabase>> };
let a: SignedIn;
let b: SignedIn & { refreshToken: string; password: string };
let namesA: Names;
let namesB: Names;
let unpairedLicenseA = '';
const printed: string[] = [];

async function signInWith(password: string) {
  const seeded = await seedUser(t, { password });
  const answer = await t.api.client.call(useraction, 'login', { user: { email: seeded.email, password } });
  if (answer.target !== 'portal') throw new Error('not a portal sign-in');
  return {
    id: seeded.id,
    email: seeded.email,
    token: answer.token_pair.access_token,
    refreshToken: answer.token_pair.refresh_token,
    password,
  };
}

async function registerRobot(user: SignedIn) {
  const res = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: 'Matrix Pepper',
    hardware_hash: hardwareHash(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.robot as { robot_id: string }).robot_id;
}

/** The session an access token belongs to (its `sid`). */
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid: string }).sid;

async function addPasskey(user: SignedIn) {
  const options = await as(t, user, security)('PasskeyRegistrationOptions');
  const added = await as(
    t,
    user,
    security,
  )('AddPasskey', {
    name: 'Matrix key',
    credential: new SoftwareAuthenticator().register(options.body.options as never),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return (added.body.passkey as { passkey_id: string }).passkey_id;
}

async function ticketOf(user: SignedIn) {
  const res = await as(
    t,
    user,
    support,
  )('SubmitSupportRequest', { category: 'general', subject: 'Matrix question', message: 'A question, long enough.' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.ticket_id);
}

async function customerOf(user: SignedIn) {
  const res = await as(t, user, payment)('GetCustomerID', {});
  return String(res.body.customer_id);
}

/** B's call of an action with one of its names swapped for A's, sent as the action's caller sends it. */
function swapped(action: MountedAction, key: keyof Names, value?: string) {
  const body = (VALID_BODIES[action.label] as (n: Names) => Record<string, unknown>)({
    ...namesB,
    [key]: value ?? namesA[key],
  });
  return t.api.post(action.service.path, { ...body, action: action.name }, { bearer: b.token, ip: nextIp() });
}

beforeAll(async () => {
  const database = await freshDatabase();
  t = Object.assign(await testApp(database, roboticsConfig({ RATE_PAIR_PER_ACCOUNT: '1000' })), { database });
  a = await signIn(t);
  b = await signInWith('B-Own-Passphrase-93!');
  const c = await signIn(t);

  // A's objects: a robot with a paired license shared with C, an unpaired license, a plan bought
  // in the sandbox (subscription, checkout session, payment, customer), a download.
  const robotA = await registerRobot(a);
  const paired = await grantLicense(t, a.id, 'Pepper');
  const pairing = await as(t, a, license, nextIp())('PAIRROBOT', { pair_code: paired.code, robot_id: robotA });
  expect(pairing.status, JSON.stringify(pairing.body)).toBe(200);
  const shared = await as(
    t,
    a,
    license,
  )('SHARELICENSE', {
    license_id: paired.licenseId,
    recipient_email: c.email,
    duration: ONE_DAY_S,
  });
  expect(shared.status, JSON.stringify(shared.body)).toBe(200);
  const unpaired = await grantLicense(t, a.id, 'Nao');
  unpairedLicenseA = unpaired.licenseId;
  const session = await buy(t, a, [PLAN.standardMonthly]);
  const plan = await planRow(t, a);
  const [paid] = await payments(t, a);
  namesA = {
    email: a.email,
    userId: a.id,
    token: a.token,
    refreshToken: '',
    robotId: robotA,
    licenseId: paired.licenseId,
    pairCode: unpaired.code,
    subscriptionId: plan.stripe_id || plan.uuid,
    sessionId: session.session_id,
    paymentId: paid?.payment_id ?? '',
    customerId: await customerOf(a),
    recipient: c.email,
    signInId: sessionOf(a.token),
    passkeyId: await addPasskey(a),
    ticketId: await ticketOf(a),
  };

  // B's own, so a swapped request differs from B's own by the one name only.
  const own = await grantLicense(t, b.id, 'Pepper');
  namesB = {
    email: b.email,
    userId: b.id,
    token: b.token,
    refreshToken: b.refreshToken,
    robotId: await registerRobot(b),
    licenseId: own.licenseId,
    pairCode: own.code,
    subscriptionId: '00000000-0000-4000-8000-000000000000',
    sessionId: 'cs_sandbox_none',
    paymentId: '00000000-0000-4000-8000-000000000000',
    customerId: await customerOf(b),
    recipient: 'nobody-b-shared-with@example.test',
    signInId: sessionOf(b.token),
    passkeyId: await addPasskey(b),
    ticketId: await ticketOf(b),
  };
});

afterAll(async () => {
  if (printed.length) console.info(`access matrix: user B aimed at user A's objects\n${printed.join('\n')}`);
  await closeApp(t);
  await t.database.close();
});

/** The rows of the matrix: derived from the contract's target fields, with the cases that differ. */
function rows(): Row[] {
  const out: Row[] = [];
  for (const action of mountedActions()) {
    for (const field of targetFields(action.def)) {
      if (Object.hasOwn(EXEMPT, `${action.label} ${field}`)) continue;
      const key = NAME_OF_FIELD[field];
      if (!key || !VALID_BODIES[action.label]) continue;
      out.push({
        label: action.label,
        fields: [field],
        object: OBJECT_OF_NAME[key],
        outcome: 'refused',
        send: () => swapped(action, key, special(action.label, field)),
      });
    }
  }
  // What differs from "refused" by design.
  const set = (label: string, field: string, patch: Partial<Row>) => {
    const row = out.find((r) => r.label === label && r.fields.includes(field));
    if (row) Object.assign(row, patch);
  };
  set('/api/useraction login', 'user.email', {
    object: "A's account (B's password)",
    send: () => t.api.call(useraction, 'login', { user: { email: a.email, password: b.password } }, { ip: nextIp() }),
  });
  set('/api/useraction logout', 'user.email', {
    object: "A's sessions (B's refresh token)",
    send: () =>
      t.api.call(useraction, 'logout', {
        token_pair: { refresh_token: b.refreshToken },
        user: { email: a.email },
      }),
  });
  set('/api/useraction UserRegister', 'user.email', { outcome: 'same answer for any address' });
  set('/api/useraction UserForgotPassword', 'user.email', {
    outcome: 'same answer for any address',
    // The reset mail goes to A's own address; its token is A's to use.
    allowed: ['email_tokens'],
    check: () => expect(t.mailer.lastTo(b.email)?.subject ?? '').not.toMatch(/reset/i),
  });
  set('/api/useraction UserChangePassword', 'user.email', {
    object: "A's password (B's own reset token)",
    send: async () => {
      await t.api.call(useraction, 'UserForgotPassword', { user: { email: b.email } }, { ip: nextIp() });
      const token = /reset\/([\w-]+)/.exec(t.mailer.lastTo(b.email)?.text ?? '')?.[1];
      expect(token, "B's reset mail").toBeTruthy();
      return t.api.call(useraction, 'UserChangePassword', {
        user: { email: a.email },
        token,
        tokentype: 2,
        password: 'Taken-Over-Account-1!',
      });
    },
  });
  set('/api/robots GetRobots', 'robot_licenses[].robot_id', {
    outcome: 'left out',
    check: (answer) =>
      expect((answer.body.robots as { robot_id: string }[]).map((r) => r.robot_id)).not.toContain(namesA.robotId),
  });
  set('/api/dial_manager UPDATE_TIME', 'robot_id', { outcome: "meters the caller's own time" });
  set('/api/license STOPSHAREDLICENSE', 'license_id', {
    fields: ['license_id', 'recipient_email'],
    object: "A's share of a paired license",
    send: () =>
      as(t, b, license)('STOPSHAREDLICENSE', { license_id: namesA.licenseId, recipient_email: namesA.recipient }),
  });
  out.splice(
    out.findIndex((r) => r.label === '/api/license STOPSHAREDLICENSE' && r.fields[0] === 'recipient_email'),
    1,
  );
  set('/api/license REGENERATEPAIRCODE', 'license_id', { object: "A's unpaired license" });
  return out;
}

/** A's value for a field when it is not the default one of its name. */
function special(label: string, field: string): string | undefined {
  if (label === '/api/license REGENERATEPAIRCODE' && field === 'license_id') return unpairedLicenseA;
  return undefined;
}

/** Routes outside the action table that name A's objects. */
function routeRows(): Row[] {
  return [
    {
      label: 'GET /api/assets/download/:id',
      fields: ['u'],
      object: "A's download link (B's link, A's user id)",
      outcome: 'refused',
      send: async () => {
        const { body } = await as(t, b, assets)('GetAll', {});
        const hub = (body.assets as { id: string; artifacts: unknown[] }[])[0];
        const res = await as(
          t,
          b,
          assets,
        )('GetDownload', {
          ...(VALID_BODIES['/api/assets GetDownload'] as (n: Names) => Record<string, unknown>)(namesB),
          asset_id: hub?.id,
          assets: hub,
        });
        const link = String(res.body.download_link).replace(`u=${b.id}`, `u=${a.id}`);
        // A refused link answers an HTML page (docs/decisions/059): the status is the verdict.
        const got = await t.app.inject({ method: 'GET', url: link });
        return { status: got.statusCode, body: { error: {} }, headers: {} } as unknown as Answer;
      },
    },
    {
      label: 'GET /sandbox/billing/:id/receipts/:payment',
      fields: ['payment'],
      object: "A's receipt (B's billing page)",
      outcome: 'refused',
      send: async () => {
        const page = await billingPage(t, b);
        const got = await t.app.inject({ method: 'GET', url: `${page.path}/receipts/${namesA.paymentId}` });
        return { status: got.statusCode, body: { error: {} }, headers: {} } as unknown as Answer;
      },
    },
  ];
}

describe('access control: user B aimed at user A', () => {
  beforeAll(async () => {
    // The download row needs an artifact in the catalogue.
    await assetRepository.upsertAsset(t.app.deps.db, {
      id: 'robot-hub',
      type: AssetType.Application,
      name: 'Robot Hub',
    });
    await t.app.services.assets.addArtifact(t.app.deps.db, {
      assetId: 'robot-hub',
      fileName: 'robot-hub-1.4.0-windows-amd64.zip',
      data: randomBytes(64),
      os: 'windows',
      arch: 'amd64',
      version: { major: 1, minor: 4, patch: 0, revision: 0 },
      createdAt: new Date(Date.UTC(2025, 5, 1)),
    });
  });

  it('covers every field that names an id or an email, or says why it need not', () => {
    const covered = new Set(rows().flatMap((r) => r.fields.map((f) => `${r.label} ${f}`)));
    const missing = mountedActions().flatMap((action) =>
      targetFields(action.def)
        .map((field) => `${action.label} ${field}`)
        .filter((key) => !covered.has(key) && !Object.hasOwn(EXEMPT, key)),
    );
    expect(missing, 'add these to the access matrix (or to EXEMPT with a reason)').toEqual([]);
  });

  it('refuses every one, and leaves A unchanged', async () => {
    const header = "| action | field | A's object | expected | answer | A unchanged |";
    printed.push(header, '|---|---|---|---|---|---|');
    const failures: string[] = [];
    for (const row of [...rows(), ...routeRows()]) {
      const before = await snapshot(t.app.deps.db, rowsOfUser(a.id));
      const answer = await row.send();
      const changed = changedTables(before, await snapshot(t.app.deps.db, rowsOfUser(a.id))).filter(
        (table) => !row.allowed?.includes(table),
      );
      const refused = answer.status >= 400 && answer.status < 500;
      const ok = (row.outcome === 'refused' ? refused : answer.status === 200) && changed.length === 0;
      let checked = true;
      try {
        row.check?.(answer);
      } catch {
        checked = false;
      }
      const code = answer.body?.error?.Code;
      printed.push(
        `| ${row.label} | ${row.fields.join(', ')} | ${row.object} | ${row.outcome} | ${answer.status}${code ? ` (${code})` : ''} | ${changed.length ? `no: ${changed.join(', ')}` : 'yes'} |`,
      );
      if (!ok || !checked)
        failures.push(
          `${row.label} ${row.fields.join(', ')}: ${answer.status} ${JSON.stringify(answer.body)}; A changed: ${changed.join(', ') || 'nothing'}`,
        );
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('leaves A signed in and owning what A owned', async () => {
    const mine = await as(t, a, robots)('GetRobots', { robot_licenses: [] });
    expect((mine.body.robots as { robot_id: string }[]).map((r) => r.robot_id)).toContain(namesA.robotId);
    const shares = await as(t, a, license)('GETSHAREDLICENSES', {});
    expect(JSON.stringify(shares.body)).toContain(namesA.recipient);
  });
});
