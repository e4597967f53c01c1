#!/usr/bin/env node
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  ApiError,
  ArtifactArch,
  ArtifactOS,
  DEFAULT_GRANT_DURATION_S,
  formatPrice,
  MAX_FLEX_SLOTS,
  MAX_GRANT_DURATION_S,
  ONE_DAY_S,
  OverrideKind,
  type OverrideKindValue,
  TIERS,
  tierIndex,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Config, loadConfigOrExit } from './config.ts';
import { type Db, openDatabase } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createMailer, type Mailer, noMailer } from './lib/mailer.ts';
import { HUB_ASSET_ID, parseVersion } from './modules/assets/assets.service.ts';
import { StorageUnavailable } from './modules/assets/assets.store.ts';
import { operatorRepository } from './modules/operator/operator.repository.ts';
import { CLI_ACTOR, type OperatedAccount } from './modules/operator/operator.service.ts';
import { pushCatalogue } from './modules/payment/catalogue.push.ts';
import { loadCatalogue } from './modules/payment/catalogue.ts';
import { stripeClient, stripeSettings } from './modules/payment/stripe.provider.ts';
import { checkStripeAccount } from './modules/payment/stripe-check.ts';
import { buildServices, type Services } from './services.ts';

/**
 * The operator command line (docs/operations.md#operator-command-line): `portal-admin <command>`, the
 * `bin` of @portal/server, built to apps/server/dist/cli.js. It uses the server's configuration and
 * database (with embedded PGlite, stop the server first: one process at a time can open its data
 * folder; while it runs, /api/operator does the grants over HTTP).
 */
export const USAGE = `usage: portal-admin <command> [arguments]     (node apps/server/dist/cli.js after npm run build)

  users:list                                   every account: email, verified, tier, joined, disabled
  users:verify <email>                         mark an account's email as verified
  users:disable <email>                        no sign-in or refresh (403) and every session ends
  users:enable <email>                         let a disabled account sign in again
  sessions:revoke <email>                      sign the account out everywhere (the password stays)
  licenses:list <email>                        the account's robot licenses (own and shared with it)
                                               and asset licenses
  robots:list <email>                          the robots registered to the account
  grant-subscription <email> <tier> [kind]     tier Lite|Standard|Pro; kind 0 free trial, 1 override
                                               (default), 2 other, 99 none; Lite ends the active one
      [--days N]                               length of the subscription (default 365)
  add-time <email> <minutes> [reason]          add durable dial minutes
  grant-license <email> <model>                an unpaired robot license; prints its pairing code
  artifacts:add <file> --os <os> --arch <arch> --version <x.y.z[.r]> [--asset ${HUB_ASSET_ID}]
                                               os windows|mac|linux; arch amd64|arm64 (windows,
                                               mac) or deb|rpm (linux)
  slots:set <email> <n>|--clear                an operator's grant of flexible license slots (0 to
                                               100), or none; the account has the larger of the
                                               grant and its plan's count. Prints the plan's count,
                                               the grant and the count in force
  catalogue:push [--dry-run]                   make Stripe equal to the committed catalogue (needs
                                               STRIPE_SECRET_KEY): new prices created, replaced ones
                                               and removed products archived, metadata replaced;
                                               --dry-run prints the plan and writes nothing; running
                                               it again changes nothing
  stripe:check                                 compare the Stripe account with what the portal
                                               needs (the catalogue, the webhook endpoint at
                                               PUBLIC_URL, its API version and events, the billing
                                               portal); prints what is missing, exit 1 if anything is
  payments:list <email>                        an account's payments: id, date, kind, amount, refunded
  refund <payment_id> [amount]                 refund a payment through the provider, whole or this
                                               many minor units; a whole refund revokes its grant
  lifecycle:run                                run the subscription lifecycle job once (renewals,
                                               expiries, reminders); the server runs it periodically
  staff:add <email> --role <role>              make the account a staff member (support, finance or
                                               admin), making the account if there is none; prints a
                                               single-use link (24 hours) to enrol their passkey
  keys:create <name> --role <role>             a named API key for /api/operator (shown once)
  keys:list                                    the API keys: id, name, role, prefix, last use
  keys:revoke <id>                             a key stops working at once
  audit:verify                                 walk the audit trail's hash chain and the HMACs of
                                               its personal fields; exit 1 naming each entry that
                                               was edited, removed or inserted
  reconcile:run                                run the reconciliation with Stripe once: repairs what
                                               missed webhooks left, counts what it cannot explain
  reconcile:status                             the last reconciliation: repaired, unexplained, details
  help, --help, -h                             this text

It reads the server's environment (DATABASE_URL or DATA_DIR, S3_BUCKET, ...; docs/operations.md)
and applies pending migrations first. Exit status: 0 done, 1 failed, 2 bad command line.
`;

export class UsageError extends Error {}

/** A command that could not be done, for a reason outside the program (storage down): one line, status 1. */
export class CommandFailed extends Error {}

/** What audit:verify says of each problem it finds. */
const AUDIT_PROBLEMS = {
  gap: 'an entry before it is missing (seq gap)',
  hash: 'its hash does not follow from the entry before it and its fields: edited, or inserted',
  personal: 'its personal fields do not match their HMAC: edited',
  'missing-personal': 'its personal side row is missing',
  'unknown-key': 'its HMAC key is neither AUDIT_HMAC_KEY nor derived from JWT_SECRET or JWT_SECRET_PREVIOUS',
} as const;

export interface CliContext {
  db: Db;
  config: Config;
  clock: Clock;
  out: (line: string) => void;
  /** where customer emails go (a refund's); none by default */
  mailer?: Mailer;
}

const day = (ms: number) => (ms ? new Date(ms).toISOString().slice(0, 10) : '-');

const isOverrideKind = (n: number): n is OverrideKindValue => (Object.values(OverrideKind) as number[]).includes(n);

function wholeNumber(text: string | undefined, what: string, min: number, max: number): number {
  const n = Number(text);
  if (text === undefined || !/^-?\d+$/.test(text) || n < min || n > max)
    throw new UsageError(`${what} must be a whole number from ${min} to ${max}`);
  return n;
}

async function userByEmail(services: Services, email: string | undefined): Promise<OperatedAccount> {
  if (!email) throw new UsageError('an email is required');
  try {
    return await services.operators.account(email);
  } catch (err) {
    if (err instanceof ApiError && err.errorName === 'NOT_FOUND')
      throw new UsageError(`no account with the email ${email}`);
    throw err;
  }
}

/** Commands that talk to Stripe only: no database, so they run from any machine that reaches Stripe. */
const STRIPE_COMMANDS = new Set(['catalogue:push', 'stripe:check']);

async function runStripeCommand(
  command: string,
  values: { 'dry-run'?: boolean | undefined },
  config: Config,
  out: (line: string) => void,
): Promise<void> {
  if (!config.STRIPE_SECRET_KEY) throw new UsageError(`${command} needs STRIPE_SECRET_KEY`);
  const stripe = stripeClient(stripeSettings(config));
  switch (command) {
    case 'catalogue:push':
      await pushCatalogue(stripe, loadCatalogue(), out, { dryRun: Boolean(values['dry-run']) });
      return;
    case 'stripe:check': {
      const lines = await checkStripeAccount(stripe, { catalogue: loadCatalogue(), publicUrl: config.PUBLIC_URL });
      for (const line of lines) out(`${line.ok ? 'ok' : 'missing'}: ${line.text}`);
      const problems = lines.filter((l) => !l.ok).length;
      if (problems)
        throw new CommandFailed(
          `stripe:check: ${problems} thing${problems === 1 ? '' : 's'} missing for ${config.PUBLIC_URL}; see the lines above`,
        );
      out(`stripe:check: the Stripe account has what ${config.PUBLIC_URL} needs`);
      return;
    }
  }
}

/** Runs one command; throws UsageError for a bad command line. */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      os: { type: 'string' },
      arch: { type: 'string' },
      version: { type: 'string' },
      asset: { type: 'string' },
      role: { type: 'string' },
      days: { type: 'string' },
      clear: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  const { db, clock, config, out } = ctx;
  if (values.help || command === 'help' || command === undefined) {
    out(USAGE);
    return;
  }
  if (command && STRIPE_COMMANDS.has(command)) return runStripeCommand(command, values, config, out);
  const services = buildServices({ db, clock, config, mailer: ctx.mailer ?? noMailer });
  const { operators } = services;

  switch (command) {
    case 'users:list': {
      const now = clock.now();
      for (const u of await operatorRepository.users(db)) {
        const tier = (await services.subscriptions.tierOf(db, u.id, now))?.tier ?? 'Lite';
        out(
          `${u.email}\t${u.verified ? 'verified' : 'unverified'}\t${tier}\tjoined ${u.joinedAt.toISOString().slice(0, 10)}${u.disabledAt ? `\tdisabled ${u.disabledAt.toISOString().slice(0, 10)}` : ''}`,
        );
      }
      return;
    }
    case 'users:verify': {
      const user = await userByEmail(services, args[0]);
      await operators.verify(user, CLI_ACTOR);
      out(`${user.email} is verified`);
      return;
    }
    case 'users:disable':
    case 'users:enable': {
      const user = await userByEmail(services, args[0]);
      const disable = command === 'users:disable';
      const changed = await operators.setDisabled(user, disable, CLI_ACTOR);
      out(
        disable
          ? `${user.email} is disabled${changed ? '' : ' (it was already)'}: no sign-in or refresh; its sessions are revoked`
          : `${user.email} is enabled${changed ? '' : ' (it was not disabled)'}`,
      );
      return;
    }
    case 'sessions:revoke': {
      const user = await userByEmail(services, args[0]);
      const live = await operators.revokeSessions(user, CLI_ACTOR);
      out(`${user.email}: ${live} live session${live === 1 ? '' : 's'} revoked; signed out everywhere`);
      return;
    }
    case 'licenses:list': {
      const user = await userByEmail(services, args[0]);
      const list = await operators.licenses(user);
      const rows = [
        ...list.robot_licenses.map((l) => ({ l, whose: 'own' })),
        ...list.shared_robot_licenses.map((l) => ({ l, whose: 'shared with it' })),
      ];
      if (rows.length + list.asset_licenses.length === 0) out(`${user.email}: no licenses`);
      for (const { l, whose } of rows)
        out(
          `${l.robot_license.license_id}\t${l.robot_model || l.asset_id}\t${l.robot_id ? `paired to ${l.robot_id}` : `unpaired, code ${l.pair_code || '-'}`}\t${day(l.robot_license.start_date)} to ${day(l.robot_license.end_date)}\t${whose}${l.isFlexible ? ', flexible' : ''}`,
        );
      for (const a of list.asset_licenses)
        out(
          `${a.asset_license.license_id}\tasset ${a.asset_id}\t${day(a.asset_license.start_date)} to ${day(a.asset_license.end_date)}`,
        );
      return;
    }
    case 'robots:list': {
      const user = await userByEmail(services, args[0]);
      const robots = await operators.robots(user);
      if (robots.length === 0) out(`${user.email}: no robots`);
      for (const r of robots)
        out(
          `${r.robot_id}\t${r.make} ${r.model}\t${r.name || '(no name)'}\t${r.robot_state.available ? 'available' : 'unavailable'}\t${r.license.license_id ? `license ${r.license.license_id}` : 'no license'}\tregistered ${day(r.join_date)}`,
        );
      return;
    }
    case 'grant-subscription': {
      const user = await userByEmail(services, args[0]);
      const index = tierIndex(args[1]);
      if (index < 0) throw new UsageError('tier must be Lite, Standard or Pro');
      const kind = args[2] === undefined ? OverrideKind.BowOverride : wholeNumber(args[2], 'override kind', 0, 99);
      if (!isOverrideKind(kind))
        throw new UsageError('override kind must be 0 (free trial), 1 (override), 2 (other) or 99 (none)');
      const durationS =
        values.days === undefined
          ? DEFAULT_GRANT_DURATION_S
          : wholeNumber(values.days, '--days', 1, MAX_GRANT_DURATION_S / ONE_DAY_S) * ONE_DAY_S;
      const granted = await operators.grantSubscription(
        user,
        { tier: TIERS[index]!, overrideKind: kind, durationS },
        CLI_ACTOR,
      );
      out(
        granted.uuid
          ? `${user.email}: ${granted.subscription_tier} active until ${new Date(granted.end_date).toISOString().slice(0, 10)} (override kind ${granted.override_kind})`
          : `${user.email}: active subscriptions ended; the account is on Lite`,
      );
      return;
    }
    case 'add-time': {
      const user = await userByEmail(services, args[0]);
      const minutes = wholeNumber(args[1], 'minutes', 1, 10_000_000);
      const reason = args.slice(2).join(' ') || 'operator grant (command line)';
      const time = await operators.addTime(user, minutes, reason, CLI_ACTOR);
      out(
        `${user.email}: +${minutes} durable minutes (durable ${time.total_durable_time - time.used_durable_time} left)`,
      );
      return;
    }
    case 'grant-license': {
      const user = await userByEmail(services, args[0]);
      const model = args[1]?.trim();
      if (!model) throw new UsageError('a robot model is required, e.g. Pepper');
      const granted = await operators.grantLicense(user, model, CLI_ACTOR);
      out(
        `${user.email}: ${granted.model} license ${granted.licenseId}, pairing code ${granted.code}${granted.driver ? '' : ' (no driver asset for this model)'}`,
      );
      return;
    }
    case 'artifacts:add': {
      const file = args[0];
      if (!file || !existsSync(file) || !statSync(file).isFile())
        throw new UsageError(`no file at ${file ?? '(none)'}`);
      const os = ArtifactOS.safeParse(values.os);
      const arch = ArtifactArch.safeParse(values.arch);
      if (!os.success) throw new UsageError('--os must be windows, mac or linux');
      if (!arch.success) throw new UsageError('--arch must be amd64, arm64, deb or rpm');
      const valid = os.data === 'linux' ? ['deb', 'rpm'] : ['amd64', 'arm64'];
      if (!valid.includes(arch.data)) throw new UsageError(`--arch for ${os.data} must be ${valid.join(' or ')}`);
      const version = parseVersion(values.version ?? '');
      if (!version) throw new UsageError('--version must look like 1.4.2 or 1.4.2.0');
      // The upload route's code (docs/decisions/076): the platform and a version not taken are
      // checked there, the row and its audit entry (by the command line) are written after the upload.
      const row = await services.assets
        .addRelease(
          {
            assetId: values.asset ?? HUB_ASSET_ID,
            fileName: basename(file),
            data: createReadStream(file),
            os: os.data,
            arch: arch.data,
            version,
          },
          { by: CLI_ACTOR },
          { anyPlatform: true },
        )
        .catch((err: unknown) => {
          // The upload retried what it could (S3_TIMEOUT_MS, S3_MAX_RETRIES); the row is written after it.
          if (!(err instanceof StorageUnavailable)) throw err;
          throw new CommandFailed(
            `artifacts:add: ${basename(file)} was not stored in ${services.assets.store.description}: ${err.message}; nothing was recorded`,
          );
        });
      out(`artifact ${row.id}: ${row.storeKey} (${row.sizeBytes} bytes, sha256 ${row.checksum})`);
      return;
    }
    case 'slots:set': {
      const user = await userByEmail(services, args[0]);
      if (Boolean(values.clear) === (args[1] !== undefined))
        throw new UsageError('slots:set needs a slot count or --clear, not both');
      const grant = values.clear ? null : wholeNumber(args[1], 'slot count', 0, MAX_FLEX_SLOTS);
      const slots = await operators.setSlotGrant(user, grant, CLI_ACTOR);
      out(
        `${user.email}: ${slots.amount} flexible license slot${slots.amount === 1 ? '' : 's'} (plan ${slots.plan}, ${slots.granted === null ? 'no operator grant' : `operator grant ${slots.granted}`})`,
      );
      return;
    }
    case 'payments:list': {
      const user = await userByEmail(services, args[0]);
      const list = await operators.payments(user);
      if (list.length === 0) out(`${user.email}: no payments`);
      for (const p of list)
        out(
          `${p.payment_id}\t${new Date(p.created_at).toISOString().slice(0, 10)}\t${p.kind}\t${formatPrice(p.amount, p.currency)}\t${p.status}${p.refunded_amount ? `\trefunded ${formatPrice(p.refunded_amount, p.currency)}` : ''}\t${p.description}`,
        );
      return;
    }
    case 'refund': {
      const id = args[0];
      if (!id) throw new UsageError('a payment id is required (payments:list shows them)');
      const amount = args[1] === undefined ? undefined : wholeNumber(args[1], 'amount', 1, 100_000_000);
      const p = await operators.refund(id, amount, CLI_ACTOR);
      out(
        `${p.payment_id}: refunded ${formatPrice(p.refunded_amount, p.currency)} of ${formatPrice(p.amount, p.currency)}${p.revoked ? '; what it granted was revoked' : ''}`,
      );
      return;
    }
    case 'reconcile:run':
    case 'reconcile:status': {
      const recon = services.billing.reconciliation;
      if (command === 'reconcile:run') {
        const run = await operators.runReconciliation(CLI_ACTOR);
        if (run.skipped)
          out('reconciliation: skipped (payments go through the sandbox, or another instance is running it)');
      }
      const last = await recon.last();
      if (!last) {
        out('reconciliation: no run yet');
        return;
      }
      out(
        `reconciliation ${last.startedAt.toISOString()}${last.finishedAt ? '' : ' (running)'}: ${last.repaired} repaired, ${last.unexplained} unexplained`,
      );
      for (const d of last.details) out(`  ${d}`);
      return;
    }
    case 'lifecycle:run': {
      const run = await operators.runLifecycle(CLI_ACTOR);
      out(
        `lifecycle: ${run.renewed} renewed, ${run.payment_failed} payment failed, ${run.ended} ended, ${run.reminders} reminders`,
      );
      return;
    }
    case 'staff:add': {
      if (!args[0] || !values.role) throw new UsageError('staff:add needs an email and --role support|finance|admin');
      const added = await services.staff.addStaff({ email: args[0], role: values.role, by: { kind: 'cli' } });
      out(
        `${args[0]}: ${added.role}${added.created ? ' (new account)' : ''}; enrolment link (single use, until ${added.expiresAt.toISOString()}):`,
      );
      out(added.link);
      return;
    }
    case 'keys:create': {
      if (!args[0] || !values.role) throw new UsageError('keys:create needs a name and --role support|finance|admin');
      const key = await services.staff.createKey({ name: args[0], role: values.role, by: { kind: 'cli' } });
      out(`API key ${key.id} "${key.name}" (${key.role}); shown this once, keep it now:`);
      out(key.key);
      return;
    }
    case 'keys:list': {
      for (const k of await services.staff.listKeys())
        out(
          [
            k.id,
            k.name,
            k.role,
            k.prefix,
            k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used',
            k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'live',
          ].join('  '),
        );
      if (services.staff.legacyKeySet) out('legacy  admin  OPERATOR_TOKEN is set: replace it with named keys');
      return;
    }
    case 'keys:revoke': {
      if (!args[0]) throw new UsageError('keys:revoke needs a key id');
      await services.staff.revokeKey({ id: args[0], by: { kind: 'cli' } });
      out(`API key ${args[0]} revoked`);
      return;
    }
    case 'audit:verify': {
      const { entries, problems, head } = await services.audit.verify();
      for (const p of problems) out(`audit entry ${p.seq}: ${AUDIT_PROBLEMS[p.problem]}`);
      if (problems.length > 0)
        throw new CommandFailed(`audit trail: ${problems.length} problems in ${entries} entries`);
      out(`audit trail verified: ${entries} entries, head ${head}`);
      return;
    }
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

/** node:util parseArgs's refusal (its code is a string; an ApiError's is a number). */
function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

async function main() {
  const argv = process.argv.slice(2);
  // Help needs no configuration and no database.
  if (argv.length === 0 || argv.some((a) => a === '--help' || a === '-h' || a === 'help')) {
    console.log(USAGE);
    process.exit(0);
  }
  const config = loadConfigOrExit();
  const command = argv.find((a) => !a.startsWith('-'));
  if (command && STRIPE_COMMANDS.has(command)) {
    // No database: the Stripe commands run from any machine that reaches Stripe.
    let status = 0;
    try {
      await runCli(argv, { db: undefined as unknown as Db, config, clock: systemClock, out: (l) => console.log(l) });
    } catch (err) {
      status = err instanceof UsageError || isParseArgsError(err) ? 2 : 1;
      if (status === 2) console.error(`${(err as Error).message}\n\n${USAGE}`);
      else console.error(err instanceof CommandFailed ? err.message : `${command} failed: ${(err as Error).message}`);
    }
    process.exit(status);
  }
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  let status = 0;
  try {
    await database.migrate();
    const mailer = createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.dataDir, 'outbox'),
      log: { info: () => {}, warn: (o: unknown) => console.warn(o) } as unknown as FastifyBaseLogger,
      logLinks: false,
    });
    await runCli(argv, {
      db: database.db,
      config,
      clock: systemClock,
      mailer,
      out: (l) => console.log(l),
    });
  } catch (err) {
    status = err instanceof UsageError || isParseArgsError(err) ? 2 : 1;
    if (status === 2) console.error(`${(err as Error).message}\n\n${USAGE}`);
    else console.error(err instanceof ApiError || err instanceof CommandFailed ? err.message : err);
  } finally {
    await database.close();
  }
  process.exit(status);
}

/** Whether this module is the program (run as `portal-admin`, through a bin link, or by path), not imported by a test. */
function isMain(): boolean {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1] as string) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMain()) void main();
