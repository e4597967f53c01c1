import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Credentials,
  CredentialsFileError,
  CredentialsStore,
  parseCredentialsPayload,
  resolveConfigDir,
} from './hub-credentials.ts';
import { sampleCredentials } from './hub-test-helpers.ts';

const posix = process.platform !== 'win32';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hub-credentials-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveConfigDir', () => {
  it.each([
    ['--config wins', '/flag', { HUB_CONFIG_DIR: '/env', XDG_CONFIG_HOME: '/xdg' }, '/flag'],
    ['then HUB_CONFIG_DIR', undefined, { HUB_CONFIG_DIR: '/env', XDG_CONFIG_HOME: '/xdg' }, '/env'],
    ['then the XDG config home', undefined, { XDG_CONFIG_HOME: '/xdg' }, join('/xdg', 'robot-portal-hub')],
    ['else ~/.config', undefined, {}, join(homedir(), '.config', 'robot-portal-hub')],
  ])('%s', (_label, flag, env, expected) => {
    expect(resolveConfigDir(flag, env)).toBe(expected);
  });
});

describe('CredentialsStore', () => {
  it('answers undefined when nobody signed in', async () => {
    const store = new CredentialsStore(join(dir, 'missing'));
    expect(await store.load()).toBeUndefined();
    expect(await store.clear()).toBe(false);
  });

  it('saves and loads the credentials, creating the folder', async () => {
    const store = new CredentialsStore(join(dir, 'nested', 'hub'));
    await store.save(sampleCredentials());
    expect(await store.load()).toEqual(sampleCredentials());
    expect(store.file).toBe(join(dir, 'nested', 'hub', 'credentials.json'));
  });

  it.runIf(posix)('keeps the file private (0600) in a private folder (0700)', async () => {
    const store = new CredentialsStore(join(dir, 'hub'));
    await store.save(sampleCredentials());
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
  });

  it.runIf(posix)('replaces a too-open file with a 0600 one', async () => {
    const store = new CredentialsStore(dir);
    await writeFile(store.file, '{}');
    await chmod(store.file, 0o644);
    await store.save(sampleCredentials());
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
  });

  it('overwrites without leaving temporary files behind', async () => {
    const store = new CredentialsStore(dir);
    await store.save(sampleCredentials());
    const rotated = sampleCredentials({
      token_pair: { ...sampleCredentials().token_pair, refresh_token: 'rotated.jwt.value' },
    });
    await store.save(rotated);
    expect((await store.load())?.token_pair.refresh_token).toBe('rotated.jwt.value');
    expect(await readdir(dir)).toEqual(['credentials.json']);
  });

  it('stores only the known fields', async () => {
    const store = new CredentialsStore(dir);
    await store.save({ ...sampleCredentials(), extra: 'not for disk' } as Credentials);
    expect(JSON.parse(await readFile(store.file, 'utf8'))).not.toHaveProperty('extra');
  });

  it('deletes the file on clear', async () => {
    const store = new CredentialsStore(dir);
    await store.save(sampleCredentials());
    expect(await store.clear()).toBe(true);
    expect(await store.load()).toBeUndefined();
  });

  it.each([
    ['not JSON', 'not json'],
    ['no token pair', JSON.stringify({ ...sampleCredentials(), token_pair: undefined })],
    ['no portal', JSON.stringify({ ...sampleCredentials(), portal: undefined })],
    ['a user without email', JSON.stringify({ ...sampleCredentials(), user: { user_id: 'u', name: 'n' } })],
  ])('refuses a file with %s, naming the file and not its tokens', async (_label, text) => {
    const store = new CredentialsStore(dir);
    await writeFile(store.file, text);
    const err = await store.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsFileError);
    expect((err as Error).message).toContain(store.file);
    expect((err as Error).message).not.toContain('jwt.value');
  });
});

describe('parseCredentialsPayload', () => {
  it('keeps the user and token pair of the portal hand-over', () => {
    const { user, token_pair } = sampleCredentials();
    expect(parseCredentialsPayload({ user: { ...user, extra: 1 }, token_pair })).toEqual({ user, token_pair });
  });

  it('names the missing field', () => {
    expect(() => parseCredentialsPayload({ user: sampleCredentials().user })).toThrow(/token_pair/);
    expect(() => parseCredentialsPayload(null)).toThrow(/user/);
  });
});
