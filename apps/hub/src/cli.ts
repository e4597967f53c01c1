#!/usr/bin/env -S npx tsx
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ClientError, isClientError, tokenExpiry } from '@portal/client';
import { dialSummary, LOGOUT_WAIT_CAP_MS, type UserTime } from '@portal/contract';
import { HubClient, type RobotRow } from './hub-client.ts';
import { type Credentials, CredentialsFileError, CredentialsStore, resolveConfigDir } from './hub-credentials.ts';
import { startHubLogin } from './hub-login.ts';

/** The hub reference command line: sign-in, robots and dial time against a portal. */

const DEFAULT_PORTAL = 'http://localhost:3000';

const OPTIONS = {
  portal: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'no-open': { type: 'boolean' },
  make: { type: 'string' },
  model: { type: 'string' },
  name: { type: 'string' },
  'hardware-hash': { type: 'string' },
  code: { type: 'string' },
  robot: { type: 'string' },
  on: { type: 'boolean' },
  off: { type: 'boolean' },
  lat: { type: 'string' },
  lon: { type: 'string' },
  minutes: { type: 'string' },
} as const;
type OptionName = keyof typeof OPTIONS;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export interface Io {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Opens a URL in a browser; answers whether it tried. */
  openBrowser?: (url: string, env: NodeJS.ProcessEnv) => boolean;
}

interface Ctx {
  command: Command;
  values: Values;
  io: Io;
  json: boolean;
  store: CredentialsStore;
  /** --portal or HUB_PORTAL_URL; undefined when neither was given */
  explicitPortal: string | undefined;
  /** the portal the command talks to, once known (for the failure message) */
  portal?: string;
}

export const NOT_SIGNED_IN = 'Not signed in; run `login` first.';
export const SESSION_OVER = 'The hub session has ended (signed out, expired or revoked); run `login` again.';

/** A failure of the hub itself (no session, no answer in time), told to the user as is. */
class HubFailure extends Error {}

/**
 * What a failed call means to the person at the command line, chosen by its kind; the portal's
 * Description where it names the problem (a refused pairing code, an unknown robot).
 */
export function describeFailure(err: ClientError, portal: string | undefined): string {
  switch (err.kind) {
    case 'network':
      return `Cannot reach the portal at ${portal ?? 'its address'}; check the address (--portal) and the network.`;
    case 'unauthenticated':
      return SESSION_OVER;
    case 'unverified':
      return `${err.description} Open the verification link the portal emailed, then run \`login\` again.`;
    case 'server':
      return `The portal failed to answer (HTTP ${err.status}): ${err.description}`;
    case 'invalid_response':
      return `The portal's answer was not understood: ${err.description}`;
    default:
      return err.description;
  }
}

/** A mistake in the command line itself: exit code 2, and the usage of the command (or all of them). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: Command,
  ) {
    super(message);
  }
}

const GLOBAL: OptionName[] = ['portal', 'config', 'json', 'help'];

interface Command {
  usage: string;
  options: OptionName[];
  run(ctx: Ctx): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  login: { usage: 'login [--no-open]', options: ['no-open'], run: login },
  whoami: { usage: 'whoami', options: [], run: whoami },
  logout: { usage: 'logout', options: [], run: logout },
  'robot register': {
    usage: 'robot register --make MAKE --model MODEL --name NAME [--hardware-hash HASH]',
    options: ['make', 'model', 'name', 'hardware-hash'],
    run: robotRegister,
  },
  'robot pair': { usage: 'robot pair --code CODE --robot ROBOT_ID', options: ['code', 'robot'], run: robotPair },
  'robot available': {
    usage: 'robot available --robot ROBOT_ID --on|--off [--lat=DEGREES --lon=DEGREES]',
    options: ['robot', 'on', 'off', 'lat', 'lon'],
    run: robotAvailable,
  },
  robots: { usage: 'robots', options: [], run: listRobots },
  dial: { usage: 'dial --robot ROBOT_ID --minutes N', options: ['robot', 'minutes'], run: dial },
  time: { usage: 'time', options: [], run: showTime },
};

function usage(): string {
  return [
    'Usage: hub <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Options:',
    '  --portal URL   portal address (default: HUB_PORTAL_URL, else the signed-in portal, else http://localhost:3000)',
    '  --config DIR   credentials folder (default: HUB_CONFIG_DIR, else ~/.config/robot-portal-hub)',
    '  --json         machine-readable output',
  ].join('\n');
}

/** Runs one command line; answers the exit code (0 done, 1 failed, 2 bad command line). */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (err) {
    io.stderr(`${(err as Error).message}\n\n${usage()}`);
    return 2;
  }
  const json = values.json ?? false;
  if (values.help || positionals.length === 0) {
    (values.help ? io.stdout : io.stderr)(usage());
    return values.help ? 0 : 2;
  }

  let ctx: Ctx | undefined;
  try {
    const name = positionals[0] === 'robot' ? positionals.slice(0, 2).join(' ') : (positionals[0] ?? '');
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
    const extra = positionals.slice(name.split(' ').length);
    if (extra.length) throw new UsageError(`Unexpected argument: ${extra.join(' ')}`);
    // One option table serves every command (parseArgs needs it up front), so each command
    // refuses the options that are not its own rather than silently ignoring them.
    const allowed = new Set<string>([...GLOBAL, ...command.options]);
    const stray = Object.keys(values).filter((k) => !allowed.has(k));
    if (stray.length) throw new UsageError(`${name} does not take ${stray.map((s) => `--${s}`).join(', ')}`, command);

    const explicitPortal = values.portal ?? (io.env.HUB_PORTAL_URL || undefined);
    if (explicitPortal !== undefined) checkPortalUrl(explicitPortal);
    const store = new CredentialsStore(resolveConfigDir(values.config, io.env));
    ctx = { command, values, io, json, store, explicitPortal, portal: explicitPortal };
    await command.run(ctx);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`${err.message}\n\n${err.command ? `Usage: hub ${err.command.usage}` : usage()}`);
      return 2;
    }
    const message =
      err instanceof ClientError ? describeFailure(err, ctx?.portal) : err instanceof Error ? err.message : String(err);
    const code = err instanceof ClientError ? err.code : undefined;
    if (json) io.stdout(JSON.stringify({ error: { Success: false, Code: code ?? null, Description: message } }));
    io.stderr(`Error: ${message}${code !== undefined ? ` (code ${code})` : ''}`);
    return 1;
  }
}

function checkPortalUrl(portal: string) {
  let url: URL;
  try {
    url = new URL(portal);
  } catch {
    throw new UsageError(`--portal: not a URL: ${portal}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--portal: must be an http(s) URL');
}

function out(ctx: Ctx, human: string, machine: unknown) {
  ctx.io.stdout(ctx.json ? JSON.stringify(machine) : human);
}

function required(ctx: Ctx, name: OptionName): string {
  const value = ctx.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`, ctx.command);
  return value;
}

/** A client for the stored session, talking to the portal that issued it unless told otherwise. */
async function signedInClient(ctx: Ctx): Promise<HubClient> {
  const credentials = await ctx.store.load();
  if (!credentials) throw new HubFailure(NOT_SIGNED_IN);
  ctx.portal = ctx.explicitPortal ?? credentials.portal;
  return new HubClient({
    portal: ctx.portal,
    credentials,
    store: ctx.store,
  });
}

function expiries(c: Credentials) {
  const { token_pair: p, received_at } = c;
  const at = (token: string, fallbackS: number) => new Date((tokenExpiry(token) ?? fallbackS) * 1000).toISOString();
  return {
    access_token_expires_at: at(p.access_token, received_at + p.access_token_expires_in),
    session_expires_at: at(p.refresh_token, received_at + p.refresh_token_expires_in),
  };
}

async function login(ctx: Ctx): Promise<void> {
  const portal = ctx.explicitPortal ?? DEFAULT_PORTAL;
  ctx.portal = portal;
  const previous = await ctx.store.load().catch(() => undefined);
  const pending = await startHubLogin({
    portal,
    store: ctx.store,
    onRejected: (reason) => ctx.io.stderr(`Refused a sign-in hand-over: ${reason} Still waiting...`),
  });
  const cancel = () => pending.cancel('Sign-in cancelled.');
  process.once('SIGINT', cancel);
  try {
    const opened = !ctx.values['no-open'] && (ctx.io.openBrowser ?? openBrowser)(pending.url, ctx.io.env);
    if (ctx.json) ctx.io.stdout(JSON.stringify({ event: 'waiting', url: pending.url, opened }));
    else
      ctx.io.stdout(
        `${opened ? 'Opening your browser to sign in. If it does not open, visit' : 'Open this address in a browser to sign in'}:\n  ${pending.url}\nWaiting up to 5 minutes...`,
      );
    const credentials = await pending.done;
    // The new session replaces the old one on disk; end the old one on the server too, so a
    // forgotten refresh token does not stay valid for days. Best effort: the new sign-in stands.
    if (previous && previous.portal === credentials.portal && previous.token_pair.refresh_token) {
      await withCap(new HubClient({ portal: previous.portal, credentials: previous }).logout()).catch(() => {});
    }
    out(ctx, `Signed in as ${credentials.user.email}`, {
      event: 'signed_in',
      email: credentials.user.email,
      name: credentials.user.name,
      user_id: credentials.user.user_id,
      portal: credentials.portal,
    });
  } finally {
    process.off('SIGINT', cancel);
  }
}

async function whoami(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  let verified = true;
  try {
    await client.getSelf();
  } catch (err) {
    // Offline, the stored identity is still worth showing; a refused session is not.
    if (!isClientError(err, 'network')) throw err;
    verified = false;
    ctx.io.stderr(`Warning: cannot reach the portal at ${client.portal}; showing the stored sign-in.`);
  }
  const session = client.session;
  const { user } = session;
  const when = expiries(session);
  out(
    ctx,
    [
      `Signed in as ${user.email}${user.name ? ` (${user.name})` : ''}`,
      `  user id:               ${user.user_id}`,
      `  portal:                ${session.portal}`,
      `  access token expires:  ${when.access_token_expires_at}`,
      `  session expires:       ${when.session_expires_at}`,
    ].join('\n'),
    { email: user.email, name: user.name, user_id: user.user_id, portal: session.portal, ...when, verified },
  );
}

function withCap<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HubFailure('The portal did not answer in time')), LOGOUT_WAIT_CAP_MS);
  });
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

async function logout(ctx: Ctx): Promise<void> {
  let credentials: Credentials | undefined;
  try {
    credentials = await ctx.store.load();
  } catch (err) {
    // An unreadable file cannot be revoked, but signing out must still get rid of it.
    if (!(err instanceof CredentialsFileError)) throw err;
    await ctx.store.clear();
    out(ctx, 'Signed out (the unreadable credentials file was deleted).', { signed_out: true, revoked: false });
    return;
  }
  if (!credentials) {
    out(ctx, 'Not signed in.', { signed_out: true, revoked: false });
    return;
  }
  ctx.portal = ctx.explicitPortal ?? credentials.portal;
  const client = new HubClient({ portal: ctx.portal, credentials });
  const email = credentials.user.email;
  // Revocation is capped like the portal's (5 s) and the file goes either way: the user asked to
  // be signed out of this machine, and that must not depend on the portal answering.
  const revoked = await withCap(client.logout()).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  await ctx.store.clear();
  if (revoked) {
    const reason = revoked instanceof ClientError ? describeFailure(revoked, ctx.portal) : revoked.message;
    throw new HubFailure(`Signed out locally, but the portal did not revoke the session: ${reason}`);
  }
  out(ctx, `Signed out ${email}.`, { signed_out: true, revoked: true, email });
}

async function robotRegister(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  const robot = await client.registerRobot({
    make: required(ctx, 'make'),
    model: required(ctx, 'model'),
    name: required(ctx, 'name'),
    hardware_hash: ctx.values['hardware-hash'],
  });
  out(ctx, `Registered robot ${robot.robot_id} (${robot.make} ${robot.model}, "${robot.name}")`, { robot });
}

async function robotPair(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  const license = await client.pairRobot({ pair_code: required(ctx, 'code'), robot_id: required(ctx, 'robot') });
  out(
    ctx,
    `Paired robot ${license.robot_id} with license ${license.robot_license.license_id} (${license.robot_make} ${license.robot_model})`,
    { robot_license: license },
  );
}

async function robotAvailable(ctx: Ctx): Promise<void> {
  const { on, off } = ctx.values;
  if (Boolean(on) === Boolean(off))
    throw new UsageError('robot available needs exactly one of --on or --off', ctx.command);
  const location = position(ctx);
  const client = await signedInClient(ctx);
  const robot = await client.setAvailability(required(ctx, 'robot'), Boolean(on), location);
  const where = robot.robot_state.location
    ? ` at ${robot.robot_state.location.lat}, ${robot.robot_state.location.lon}`
    : '';
  out(ctx, `Robot ${robot.robot_id} is now ${robot.robot_state.available ? 'available' : 'unavailable'}${where}`, {
    robot,
  });
}

/** --lat and --lon, both or neither, as decimal degrees; the portal checks the ranges and names the field. */
function position(ctx: Ctx): { lat: number; lon: number } | undefined {
  const { lat, lon } = ctx.values;
  if (lat === undefined && lon === undefined) return undefined;
  if (lat === undefined || lon === undefined)
    throw new UsageError('robot available needs both --lat and --lon, or neither', ctx.command);
  const degrees = (name: 'lat' | 'lon', raw: string) => {
    if (!/^-?\d+(\.\d+)?$/.test(raw.trim()))
      throw new UsageError(`--${name} must be decimal degrees, e.g. 51.5`, ctx.command);
    return Number(raw);
  };
  return { lat: degrees('lat', lat), lon: degrees('lon', lon) };
}

function robotTable(rows: RobotRow[]): string {
  if (rows.length === 0) return 'No robots or robot licenses.';
  const header = ['NAME', 'MODEL', 'PAIRED', 'AVAILABLE', 'ROBOT ID', 'LICENSE'];
  const lines = rows.map((r) => [
    `${r.name || '-'}${r.shared ? ' (shared)' : ''}`,
    `${r.model || '-'}${r.flexible ? ' (flex)' : ''}`,
    r.paired ? 'paired' : r.license_id ? `unpaired, code ${r.pair_code || '-'}` : 'no license',
    r.robot_id ? (r.available ? 'yes' : 'no') : '-',
    r.robot_id || '-',
    r.license_id || '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  return [header, ...lines]
    .map((cols) =>
      cols
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function listRobots(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  const rows = await client.listRobots();
  out(ctx, robotTable(rows), { robots: rows });
}

function minutesArg(ctx: Ctx): number {
  const raw = required(ctx, 'minutes').trim();
  // Number('') and Number('0x10') would pass a numeric check; only plain digits are minutes.
  if (!/^-?\d+$/.test(raw)) throw new UsageError('--minutes must be a whole number of minutes', ctx.command);
  return Number(raw);
}

function describeTime(t: UserTime): string {
  if (t.has_infinite_time) return 'Dial time: infinite';
  const s = dialSummary(t);
  const lines = [
    `Dial time remaining: ${s.remaining} minutes`,
    `  perishable: ${s.perishable.remaining} of ${s.perishable.total} minutes left`,
    `  durable:    ${s.durable.remaining} of ${s.durable.total} minutes left`,
  ];
  if (t.warning_message) lines.push(`  ${t.warning_message}`);
  return lines.join('\n');
}

function timeJson(t: UserTime) {
  const s = dialSummary(t);
  return { remaining_minutes: s.remaining, infinite: s.infinite, user_time: t };
}

async function dial(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  const robotId = required(ctx, 'robot');
  const minutes = minutesArg(ctx);
  await client.dial(robotId, minutes);
  const after = await client.remainingTime();
  out(ctx, `Recorded ${minutes} minutes dialling robot ${robotId}.\n${describeTime(after)}`, {
    recorded_minutes: minutes,
    robot_id: robotId,
    ...timeJson(after),
  });
}

async function showTime(ctx: Ctx): Promise<void> {
  const client = await signedInClient(ctx);
  const t = await client.remainingTime();
  out(ctx, describeTime(t), timeJson(t));
}

/** Best effort: a desktop opener where one can work; the URL is printed either way. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  let command: string;
  let args: string[];
  let verbatim = false;
  if (process.platform === 'darwin') {
    command = 'open';
    args = [url];
  } else if (process.platform === 'win32') {
    // `start` is a cmd built-in; `&` in the query would otherwise split the command line.
    command = 'cmd';
    args = ['/c', 'start', '""', url.replace(/&/g, '^&')];
    verbatim = true;
  } else {
    // Without a display, xdg-open would start a text browser or fail noisily over SSH.
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
    command = 'xdg-open';
    args = [url];
  }
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: verbatim });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function processIo(): Io {
  return {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  };
}

/** True when this file is the program being run, not a module a test imported. */
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
