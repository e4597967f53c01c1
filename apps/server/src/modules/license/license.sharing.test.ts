import { ErrorCodes, license, ONE_DAY_S, robots, security, useraction } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  expectFieldError,
  grantLicense,
  hardwareHash,
  nextIp,
  relogin,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { GOOD_PASSWORD, seedUser, uniqueEmail } from '../../test/harness.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';
import {
  RECIPIENT_LIMITED,
  SENDER_LIMITED,
  SHARE_INVITE_WINDOW_S,
  SHARE_INVITES_PER_RECIPIENT,
  SHARE_INVITES_PER_SENDER,
  STOP_LIMITED,
} from './license.sharing.ts';

/** Sharing a robot license with an address (docs/decisions/023). */
const t = useTestApp();

type Lic = {
  robot_id: string;
  pair_code: string;
  paired_status: boolean;
  robot_license: { license_id: string; start_date: number; end_date: number; duration: number };
};
type Entry = { sharee_email: string; license: Lic };

async function registerRobot(user: SignedIn, model = 'Pepper') {
  const res = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', { make: model, model, name: 'Robbie', hardware_hash: hardwareHash() });
  expect(res.status).toBe(200);
  return (res.body.robot as { robot_id: string }).robot_id;
}

/** A user with a license paired to a registered robot. */
async function pairedOwner(durationS?: number) {
  const owner = await signIn(t);
  const { licenseId, code } = await grantLicense(t, owner.id, 'Pepper', durationS);
  const robotId = await registerRobot(owner);
  const res = await as(t, owner, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId });
  expect(res.status).toBe(200);
  return { owner, licenseId, robotId };
}

const share = (owner: SignedIn, licenseId: string, email: string, duration = 7 * ONE_DAY_S) =>
  as(t, owner, license)('SHARELICENSE', { license_id: licenseId, recipient_email: email, duration });

const sharesOf = async (owner: SignedIn) => {
  const res = await as(t, owner, license)('GETSHAREDLICENSES');
  expect(res.status).toBe(200);
  return res.body.sharees_robots as Entry[];
};

const sharedWith = async (user: SignedIn) => {
  const res = await as(t, user, license)('GetLicences');
  expect(res.status).toBe(200);
  return (res.body.user_licenses as { shared_robot_licenses: Lic[] }).shared_robot_licenses;
};

const mailsTo = (email: string) => t.mailer.sent.filter((m) => m.to === email);

const login = async (email: string, password = GOOD_PASSWORD): Promise<SignedIn> => {
  const res = await t.api.call(useraction, 'login', { user: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const user = res.body.user as { user_id: string };
  return { id: user.user_id, email, token: (res.body.token_pair as { access_token: string }).access_token };
};

const linkToken = (link: string | undefined) => decodeURIComponent(String(link).split('/').at(-1) ?? '');

/** Signs up with an address as a person does: UserRegister, then the emailed verification link. */
async function signUp(email: string): Promise<SignedIn> {
  const res = await t.api.call(useraction, 'UserRegister', {
    user: {
      email,
      password: GOOD_PASSWORD,
      name: 'New Colleague',
      year_born: 1990,
      country: 'United Kingdom',
      company: 'Test Robotics',
      marketing: false,
      termsagreed: true,
    },
  });
  expect(res.status).toBe(200);
  const link = mailsTo(email).findLast((m) => m.link?.includes('/auth/verify/'))?.link;
  expect(link).toBeTruthy();
  expect((await t.api.call(useraction, 'UserVerifyEmail', { token: linkToken(link) })).status).toBe(200);
  return login(email);
}

describe('SHARELICENSE', () => {
  it('the recipient is mailed and sees the robot read-only until the owner stops sharing', async () => {
    const { owner, licenseId, robotId } = await pairedOwner();
    const recipient = await signIn(t);

    const shared = await share(owner, licenseId, recipient.email.toUpperCase());
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({
      owner_email: owner.email,
      sharees_robots: [{ sharee_email: recipient.email, license: { robot_id: robotId } }],
    });
    expect(await sharesOf(owner)).toHaveLength(1);

    const [mail, ...more] = mailsTo(recipient.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe(`${owner.email} shared a robot with you on Robot Portal`);
    expect(mail?.text).toContain(`${owner.email} shared their Pepper robot with you until`);
    expect(mail?.link).toBe(`${t.config.PUBLIC_URL}/dashboard`);

    const [seen, ...others] = await sharedWith(recipient);
    expect(others).toEqual([]);
    expect(seen).toMatchObject({ robot_id: robotId, pair_code: '', paired_status: true });
    expect(seen?.robot_license.duration).toBe(7 * ONE_DAY_S);
    const robotsSeen = await as(t, recipient, robots)('GetRobots', { robot_licenses: [{ robot_id: robotId }] });
    expect(robotsSeen.body.robots).toEqual([expect.objectContaining({ robot_id: robotId, hardware_hash: '' })]);
    // Read-only: the recipient can neither change the robot nor its license, nor share it on.
    expect((await as(t, recipient, robots)('UPDATEROBOT', { robot_id: robotId, name: 'Mine now' })).status).toBe(404);
    expect((await as(t, recipient, license)('UNPAIR', { license_id: licenseId })).status).toBe(404);
    expectFieldError(await share(recipient, licenseId, uniqueEmail()), 404, 'license_id');

    const stopped = await as(
      t,
      owner,
      license,
    )('STOPSHAREDLICENSE', {
      license_id: licenseId,
      recipient_email: recipient.email,
    });
    expect(stopped.status).toBe(200);
    expect(stopped.body.sharees_robots).toEqual([]);
    expect((await as(t, recipient, license)('GetLicences')).body.error.Code).toBe(ErrorCodes.NO_LICENSES.code);
    const afterStop = await as(t, recipient, robots)('GetRobots', { robot_licenses: [{ robot_id: robotId }] });
    expect(afterStop.body.robots).toEqual([]);
  });

  it('ends by itself when its duration passes', async () => {
    const { owner, licenseId } = await pairedOwner();
    const recipient = await signIn(t);
    expect((await share(owner, licenseId, recipient.email, 60)).status).toBe(200);
    expect(await sharedWith(recipient)).toHaveLength(1);
    t.clock.advance(61_000);
    expect(await sharedWith(recipient)).toEqual([]);
    expect(await sharesOf(owner)).toEqual([]);
    // Once ended, the same address can be given a new share.
    expect((await share(owner, licenseId, recipient.email, 60)).status).toBe(200);
  });

  it('never outlasts the license', async () => {
    const { owner, licenseId } = await pairedOwner(3_600);
    const res = await share(owner, licenseId, (await signIn(t)).email, 30 * ONE_DAY_S);
    expect((res.body.sharees_robots as Entry[])[0]?.license.robot_license.duration).toBeLessThanOrEqual(3_600);
  });

  it('answers the same for a verified account, an unverified one and an address without an account', async () => {
    const { owner, licenseId, robotId } = await pairedOwner();
    const verified = await signIn(t);
    const unverified = await seedUser(t, { verified: false });
    const unknown = uniqueEmail('invitee');

    const answers = [];
    for (const email of [verified.email, unverified.email, unknown]) {
      const res = await share(owner, licenseId, email);
      const entry = (res.body.sharees_robots as Entry[]).find((e) => e.sharee_email === email);
      // Dates follow the clock, which moves between calls; everything else must be identical.
      const { start_date: _s, end_date: _e, ...terms } = entry?.license.robot_license ?? {};
      answers.push({ status: res.status, error: res.body.error, license: { ...entry?.license, robot_license: terms } });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect((await sharesOf(owner)).map((e) => e.sharee_email)).toEqual([verified.email, unverified.email, unknown]);

    // The verified account is told it is on the dashboard; the others are invited to sign up.
    expect(mailsTo(verified.email).map((m) => m.link)).toEqual([`${t.config.PUBLIC_URL}/dashboard`]);
    for (const email of [unverified.email, unknown]) {
      const [invitation, ...more] = mailsTo(email);
      expect(more).toEqual([]);
      expect(invitation?.subject).toBe(`${owner.email} shared a robot with you on Robot Portal`);
      expect(invitation?.link).toBe(`${t.config.PUBLIC_URL}/auth/signup`);
      expect(invitation?.text).toContain('create a Robot Portal account with this email address');
    }

    // Each pending share applies once its address is verified: by signing up, or by finishing a sign-up.
    const newcomer = await signUp(unknown);
    expect(await sharedWith(newcomer)).toEqual([expect.objectContaining({ robot_id: robotId, paired_status: true })]);
    const late = await signUp(unverified.email);
    expect(await sharedWith(late)).toEqual([expect.objectContaining({ robot_id: robotId })]);
    expect((await sharesOf(owner)).map((e) => e.sharee_email)).toEqual([verified.email, unverified.email, unknown]);
  });

  it('a pending share also applies when a staff enrolment link proves the address', async () => {
    const { owner, licenseId, robotId } = await pairedOwner();
    const email = uniqueEmail('staff-sharee');
    expect((await share(owner, licenseId, email)).status).toBe(200);
    const added = await t.app.services.staff.addStaff({ email, role: 'support', by: { kind: 'cli' } });
    const token = new URL(added.link).searchParams.get('token') ?? '';
    const options = await t.api.call(security, 'StaffEnrolmentOptions', { enrolment_token: token }, { ip: nextIp() });
    expect(options.status).toBe(200);
    const enrolled = await t.api.call(
      security,
      'StaffEnrol',
      {
        enrolment_token: token,
        name: 'Work laptop',
        credential: new SoftwareAuthenticator().register(options.body.options as never),
      },
      { ip: nextIp() },
    );
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    const staff = {
      id: added.userId,
      email,
      token: (enrolled.body.token_pair as { access_token: string }).access_token,
    };
    expect(await sharedWith(staff)).toEqual([expect.objectContaining({ robot_id: robotId })]);
  });

  it('a pending share also applies when a password reset proves the address', async () => {
    const { owner, licenseId, robotId } = await pairedOwner();
    const unverified = await seedUser(t, { verified: false });
    expect((await share(owner, licenseId, unverified.email)).status).toBe(200);

    await t.api.call(useraction, 'UserForgotPassword', { user: { email: unverified.email } }, { ip: nextIp() });
    const link = mailsTo(unverified.email).findLast((m) => m.link?.includes('/auth/password/reset/'))?.link;
    const newPassword = 'Another-Robot-Pass-7!';
    const reset = await t.api.call(useraction, 'UserChangePassword', {
      user: { email: unverified.email },
      token: linkToken(link),
      tokentype: 2,
      password: newPassword,
    });
    expect(reset.status).toBe(200);
    expect(await sharedWith(await login(unverified.email, newPassword))).toEqual([
      expect.objectContaining({ robot_id: robotId }),
    ]);
  });

  it.each([
    ['your own address', 'self', 400, 'recipient_email'],
    ['an address it is already shared with', 'twice', 400, 'recipient_email'],
    ['the same address in other letter case', 'twice-upper', 400, 'recipient_email'],
    ['a malformed address', 'malformed', 400, 'recipient_email'],
    ['a zero duration', 'zero', 400, 'duration'],
    ['a fractional duration', 'fraction', 400, 'duration'],
    ['a duration over 366 days', 'too-long', 400, 'duration'],
    ['an unpaired license', 'unpaired', 409, 'license_id'],
    ['a license that has ended', 'ended', 409, 'license_id'],
    ["another user's license", 'foreign', 404, 'license_id'],
    ['a malformed license id', 'bad-id', 404, 'license_id'],
  ] as const)('refuses %s, naming the field, and changes nothing', async (_name, kind, status, field) => {
    const { owner, licenseId } = await pairedOwner(kind === 'ended' ? 120 : undefined);
    const recipient = await signIn(t);
    const body: Record<string, unknown> = { license_id: licenseId, recipient_email: recipient.email, duration: 3600 };
    if (kind === 'self') body.recipient_email = owner.email;
    if (kind === 'twice' || kind === 'twice-upper') {
      expect((await share(owner, licenseId, recipient.email, ONE_DAY_S)).status).toBe(200);
      if (kind === 'twice-upper') body.recipient_email = recipient.email.toUpperCase();
    }
    if (kind === 'malformed') body.recipient_email = 'not-an-email';
    if (kind === 'zero') body.duration = 0;
    if (kind === 'fraction') body.duration = 1.5;
    if (kind === 'too-long') body.duration = 366 * ONE_DAY_S + 1;
    if (kind === 'unpaired') body.license_id = (await grantLicense(t, owner.id)).licenseId;
    if (kind === 'ended') t.clock.advance(121_000);
    if (kind === 'foreign') body.license_id = (await pairedOwner()).licenseId;
    if (kind === 'bad-id') body.license_id = 'x';

    const sharesBefore = await sharesOf(owner);
    const seenBefore = await sharedWith(recipient);
    const mailsBefore = t.mailer.sent.length;
    expectFieldError(await as(t, owner, license)('SHARELICENSE', body), status, field);
    expect(await sharesOf(owner)).toEqual(sharesBefore);
    expect(await sharedWith(recipient)).toEqual(seenBefore);
    expect(t.mailer.sent.length).toBe(mailsBefore);
  });

  it('says plainly why sharing twice or with yourself is refused', async () => {
    const { owner, licenseId } = await pairedOwner();
    const recipient = await signIn(t);
    const self = await share(owner, licenseId, owner.email);
    expect(self.body.error.Description).toBe('recipient_email: You cannot share a robot with yourself');
    await share(owner, licenseId, recipient.email);
    const twice = await share(owner, licenseId, recipient.email);
    expect(twice.body.error.Description).toBe(
      'recipient_email: This robot is already shared with this address. Stop that share first to change it.',
    );
  });

  // PGlite runs one transaction at a time, so this race is only a race on PostgreSQL (TEST_DATABASE_URL, as CI runs it).
  it('shares with the same address made at once make one share', async () => {
    const { owner, licenseId } = await pairedOwner();
    const email = uniqueEmail('race');
    const answers = await Promise.all(Array.from({ length: 4 }, () => share(owner, licenseId, email)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    expect((await sharesOf(owner)).filter((e) => e.sharee_email === email)).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('invitation caps', () => {
  it(`refuses an owner's share number ${SHARE_INVITES_PER_SENDER + 1} of a day, changing nothing, until the next day`, async () => {
    const { owner, licenseId } = await pairedOwner();
    for (let i = 0; i < SHARE_INVITES_PER_SENDER; i++)
      expect((await share(owner, licenseId, uniqueEmail('cap'))).status).toBe(200);
    const before = await sharesOf(owner);
    const extra = uniqueEmail('over');
    const refused = await share(owner, licenseId, extra);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ Code: ErrorCodes.RATE_LIMITED.code, Description: SENDER_LIMITED });
    expect(await sharesOf(owner)).toEqual(before);
    expect(mailsTo(extra)).toEqual([]);

    t.clock.advance(SHARE_INVITE_WINDOW_S * 1000);
    const again = await share(await relogin(t, owner), licenseId, extra);
    expect(again.status).toBe(200);
    expect(mailsTo(extra)).toHaveLength(1);
  });

  it.each([
    ['an address with an account', true],
    ['an address without one', false],
  ])(
    `refuses share number ${SHARE_INVITES_PER_RECIPIENT + 1} of a day to %s, changing nothing`,
    async (_name, hasAccount) => {
      const email = hasAccount ? (await signIn(t)).email : uniqueEmail('popular');
      for (let i = 0; i < SHARE_INVITES_PER_RECIPIENT; i++) {
        const { owner, licenseId } = await pairedOwner();
        expect((await share(owner, licenseId, email)).status).toBe(200);
      }
      const { owner, licenseId } = await pairedOwner();
      const refused = await share(owner, licenseId, email);
      expectFieldError(refused, 429, 'recipient_email');
      expect(refused.body.error.Description).toBe(RECIPIENT_LIMITED);
      expect(await sharesOf(owner)).toEqual([]);
      expect(mailsTo(email).filter((m) => m.subject.includes('shared a robot'))).toHaveLength(
        SHARE_INVITES_PER_RECIPIENT,
      );
    },
  );
});

describe('STOPSHAREDLICENSE', () => {
  it('answers every address that is not a live share of this license alike, and stops nothing', async () => {
    const { owner, licenseId } = await pairedOwner();
    const recipient = await signIn(t);
    const stranger = await signIn(t);
    const elsewhere = uniqueEmail('elsewhere');
    const former = uniqueEmail('former');
    await share(owner, licenseId, recipient.email);
    await share(owner, licenseId, former);
    await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId, recipient_email: former });
    // `elsewhere` has a share, but of another owner's license.
    const otherOwner = await signIn(t);
    const { licenseId: theirs, code } = await grantLicense(t, otherOwner.id);
    await as(
      t,
      otherOwner,
      license,
      nextIp(),
    )('PAIRROBOT', { pair_code: code, robot_id: await registerRobot(otherOwner) });
    expect((await share(otherOwner, theirs, elsewhere)).status).toBe(200);

    const before = await sharesOf(owner);
    const answers = [];
    for (const email of [uniqueEmail('nobody'), stranger.email, owner.email, elsewhere, former]) {
      const res = await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId, recipient_email: email });
      answers.push({ status: res.status, error: res.body.error });
    }
    expect(answers[0]).toEqual({
      status: 404,
      error: {
        Success: false,
        Code: ErrorCodes.NOT_FOUND.code,
        Description: 'recipient_email: This robot is not shared with this address',
      },
    });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await sharesOf(owner)).toEqual(before);
    expect(await sharedWith(recipient)).toHaveLength(1);
    expect(await sharesOf(otherOwner)).toHaveLength(1);
  });

  it('a stopped invitation does not apply when its address signs up later', async () => {
    const { owner, licenseId } = await pairedOwner();
    const email = uniqueEmail('withdrawn');
    await share(owner, licenseId, email);
    const stopped = await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId, recipient_email: email });
    expect(stopped.status).toBe(200);
    expect(stopped.body.sharees_robots).toEqual([]);
    expect(await sharedWith(await signUp(email))).toEqual([]);
  });

  it('is limited per owner (RATE_STOP_SHARE_PER_ACCOUNT an hour): trying addresses has an end (finding 4)', async () => {
    const { owner, licenseId } = await pairedOwner();
    const email = uniqueEmail('kept');
    await share(owner, licenseId, email);
    const limit = t.config.RATE_STOP_SHARE_PER_ACCOUNT;
    for (let i = 0; i < limit; i++) {
      const res = await as(
        t,
        owner,
        license,
      )('STOPSHAREDLICENSE', {
        license_id: licenseId,
        recipient_email: uniqueEmail('probe'),
      });
      expect(res.status).toBe(404);
    }
    const refused = await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId, recipient_email: email });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ Code: ErrorCodes.RATE_LIMITED.code, Description: STOP_LIMITED });
    expect((await sharesOf(owner)).map((e) => e.sharee_email)).toEqual([email]);
    t.clock.advance(3600 * 1000);
    const again = await relogin(t, owner);
    expect(
      (await as(t, again, license)('STOPSHAREDLICENSE', { license_id: licenseId, recipient_email: email })).status,
    ).toBe(200);
  });

  it('with no address stops every share of the license', async () => {
    const { owner, licenseId } = await pairedOwner();
    const [r1, r2] = [await signIn(t), await signIn(t)];
    for (const r of [r1, r2]) await share(owner, licenseId, r.email, 3600);
    const res = await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId });
    expect(res.body.sharees_robots).toEqual([]);
    for (const r of [r1, r2]) expect(await sharedWith(r)).toEqual([]);
    expectFieldError(await as(t, owner, license)('STOPSHAREDLICENSE', { license_id: licenseId }), 404, 'license_id');
  });
});
