import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_PORTAL_CONFIG, ONE_DAY_S, PORTAL_CONFIG_ELEMENT_ID, portalConfigSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { ConfigError, defaultAllowedHosts, isPlaceholderAddress, loadConfig, secretStrengthIssue } from './config.ts';
import type { Database } from './db/client.ts';
import { DEPLOYMENT_ADDRESSES, freshDatabase, testConfig } from './test/harness.ts';

const SECRET = 'production-secret-that-is-long-enough-for-hs256';
/** A production environment without any of the web app's addresses. */
const bareProduction: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  DATA_DIR: '/tmp/portal-test-data',
};
const production = (overrides: Record<string, string> = {}) => ({
  ...bareProduction,
  ...DEPLOYMENT_ADDRESSES,
  ...overrides,
});

/** The message loadConfig refuses with, or undefined when it accepts the environment. */
function refusal(source: Record<string, string>): string | undefined {
  try {
    loadConfig(source);
    return undefined;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}

describe('isPlaceholderAddress', () => {
  it.each([
    ['https://docs.robot-portal.example', true],
    ['https://docs.robot-portal.example/tutorials', true],
    ['mailto:help@robot-portal.example', true],
    ['privacy@robot-portal.example', true],
    ['https://example.com/help', true],
    ['https://help.example.org', true],
    ['https://portal.test', true],
    ['http://localhost:3000/docs', true],
    ['https://docs.robots.acme.co.uk', false],
    ['mailto:support@robots.acme.co.uk?subject=Help', false],
    ['privacy@robots.acme.co.uk', false],
    ['https://myexample.com', false],
  ])('%s -> %s', (address, placeholder) => {
    expect(isPlaceholderAddress(address)).toBe(placeholder);
  });
});

const dev = (overrides: Record<string, string>) => ({
  NODE_ENV: 'development',
  DATA_DIR: '/tmp/portal-test-data',
  JWT_SECRET: SECRET,
  ...overrides,
});

describe('TRUST_PROXY names the proxy (finding 1)', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('%s -> %j', (value, expected) => {
    expect(loadConfig(dev(value === undefined ? {} : { TRUST_PROXY: value })).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    ['true', 'true would trust any X-Forwarded-For a client writes'],
    ['yes', 'true would trust any X-Forwarded-For a client writes'],
    ['11', 'a hop count must be 1 to 10'],
    ['10.0.0.0/33', '10.0.0.0/33 is not an address, a CIDR'],
    ['proxy.internal', 'proxy.internal is not an address, a CIDR'],
    ['10.0.0.1/8/2', '10.0.0.1/8/2 is not an address'],
  ])('%s is refused', (value, reason) => {
    expect(refusal(dev({ TRUST_PROXY: value }))).toContain(`  TRUST_PROXY: ${reason}`);
  });
});

describe('TRUST_FORWARDED_HOST (issue 33)', () => {
  it('is off by default, and on only with TRUST_PROXY', () => {
    expect(loadConfig(dev({ TRUST_PROXY: '1' })).TRUST_FORWARDED_HOST).toBe(false);
    expect(loadConfig(dev({ TRUST_PROXY: '1', TRUST_FORWARDED_HOST: 'true' })).TRUST_FORWARDED_HOST).toBe(true);
    expect(refusal(dev({ TRUST_FORWARDED_HOST: 'true' }))).toContain(
      '  TRUST_FORWARDED_HOST: is true but TRUST_PROXY is not set',
    );
    expect(refusal(dev({ TRUST_PROXY: '1', TRUST_FORWARDED_HOST: 'maybe' }))).toMatch(/^ {2}TRUST_FORWARDED_HOST: /m);
  });
});

describe('ALLOWED_HOSTS (finding 12)', () => {
  it.each([
    ['http://localhost:3000', ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']],
    ['http://127.0.0.1:4613', ['127.0.0.1:4613', 'localhost:4613', '[::1]:4613']],
    ['https://portal.acme.co.uk', ['portal.acme.co.uk']],
    ['https://Portal.Acme.co.uk:8443/base', ['portal.acme.co.uk:8443']],
  ])('the default of PUBLIC_URL %s is %j', (publicUrl, hosts) => {
    expect(defaultAllowedHosts(publicUrl)).toEqual(hosts);
  });

  it('without PUBLIC_URL, the loopback names on PORT: localhost served, the others its aliases', () => {
    const config = loadConfig(dev({ PORT: '3100' }));
    expect([config.ALLOWED_HOSTS, config.hostAliases]).toEqual([['localhost:3100'], ['127.0.0.1:3100', '[::1]:3100']]);
  });

  it.each([
    // WebAuthn takes no IP address: a PUBLIC_URL on 127.0.0.1 keeps its passkey origin, localhost, served.
    ['http://127.0.0.1:4613', {}, ['127.0.0.1:4613', 'localhost:4613'], ['[::1]:4613']],
    ['http://localhost:3000', {}, ['localhost:3000'], ['127.0.0.1:3000', '[::1]:3000']],
    ['https://portal.acme.co.uk', {}, ['portal.acme.co.uk'], []],
    // A passkey origin that is no loopback name of PUBLIC_URL's adds no host.
    [
      'http://localhost:3000',
      { WEBAUTHN_ORIGINS: 'https://keys.localhost' },
      ['localhost:3000'],
      ['127.0.0.1:3000', '[::1]:3000'],
    ],
    ['http://localhost:3000', { ALLOWED_HOSTS: 'localhost,127.0.0.1' }, ['localhost', '127.0.0.1'], []],
  ])('PUBLIC_URL %s with %j serves %j and sends %j to it', (publicUrl, extra, served, aliases) => {
    const config = loadConfig(dev({ PUBLIC_URL: publicUrl, ...extra }));
    expect([config.ALLOWED_HOSTS, config.hostAliases]).toEqual([served, aliases]);
  });

  it('a list is taken lower-cased, and a bad entry is refused', () => {
    expect(loadConfig(dev({ ALLOWED_HOSTS: 'Portal.acme.co.uk, portal-2.acme.co.uk:8443' })).ALLOWED_HOSTS).toEqual([
      'portal.acme.co.uk',
      'portal-2.acme.co.uk:8443',
    ]);
    expect(refusal(dev({ ALLOWED_HOSTS: 'https://portal.acme.co.uk' }))).toContain(
      '  ALLOWED_HOSTS: https://portal.acme.co.uk is not a host or host:port',
    );
    expect(refusal(dev({ ALLOWED_HOSTS: ' , ' }))).toContain('  ALLOWED_HOSTS: must name at least one host');
  });
});

describe('JWT_SECRET strength (finding 13; issue 33: runs, repeats and sequences)', () => {
  it.each([
    ['a random base64url secret', 'q3J9x0V_kTz8bW2mLr5YcN1pHs7uEa4GdF6iOjKv', undefined],
    ['the test secret', 'test-secret-that-is-long-enough-for-hs256-signing', undefined],
    ['a short one', 'Zx8-kq2_Lm4', 'must be at least 32 characters'],
    ['a placeholder', 'change-me-change-me-change-me-change-me', 'looks like a placeholder'],
    ['a documented example', 'your-jwt-secret-goes-here-1234567890', 'looks like a placeholder'],
    ['a bare word', 'secretsecretsecretsecretsecretsecret', 'looks like a placeholder'],
    ['one character repeated', 'a'.repeat(64), 'is too predictable (too few distinct characters)'],
    ['a short unit repeated', 'ab12'.repeat(16), 'is too predictable (too few distinct characters)'],
    ['digits only', '12345678901234567890123456789012', 'is too predictable (too few distinct characters)'],
    // 148 and 128 bits by their character frequencies alone: both started a production server.
    [
      'the alphabet and its start again',
      'abcdefghijklmnopqrstuvwxyzabcdef',
      'is too predictable (it holds a sequence)',
    ],
    ['the hexadecimal digits twice', '0123456789abcdef0123456789abcdef', 'is too predictable (it holds a repeat)'],
    ['a random stretch twice', 'Kx7qP2vN9mR4tW8yKx7qP2vN9mR4tW8y', 'is too predictable (it holds a repeat)'],
    ['sequences backwards', 'zyxwvutsrqponmlkjihgfedcba9876543210', 'is too predictable (it holds a sequence)'],
    ['keyboard rows', 'qwertyuiopasdfghjklzxcvbnm1234567890', 'is too predictable (it holds a keyboard walk'],
    ['a word, then a run', 'Tr0ub4dor&3-bcdefghijklmnopqrstuvwxyz', 'is too predictable (it holds a sequence)'],
  ])('%s', (_label, secret, issue) => {
    const found = secretStrengthIssue(secret);
    if (issue === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(issue);
  });

  it('is checked at start in every environment', () => {
    expect(refusal(dev({ JWT_SECRET: 'a'.repeat(40) }))).toMatch(/^ {2}JWT_SECRET: is too predictable/m);
    expect(refusal(production({ JWT_SECRET: 'change-me-change-me-change-me-change-me' }))).toMatch(
      /^ {2}JWT_SECRET: looks like a placeholder/m,
    );
    for (const secret of ['abcdefghijklmnopqrstuvwxyzabcdef', '0123456789abcdef0123456789abcdef'])
      expect(refusal(production({ JWT_SECRET: secret }))).toMatch(/^ {2}JWT_SECRET: is too predictable \(it holds/m);
  });

  it.each([
    ['openssl rand -base64 32', () => randomBytes(32).toString('base64')],
    ['openssl rand -hex 32', () => randomBytes(32).toString('hex')],
    ['openssl rand -base64 48', () => randomBytes(48).toString('base64')],
  ])('what %s makes is accepted (100 of them)', (_command, generate) => {
    for (let i = 0; i < 100; i++) {
      const secret = generate();
      expect([secret, secretStrengthIssue(secret)]).toEqual([secret, undefined]);
    }
  });

  it('the development secret made into DATA_DIR is accepted, by the same rule as a configured one', () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-secret-'));
    try {
      for (let i = 0; i < 20; i++) {
        const dataDir = join(root, String(i));
        const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
        expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(config.JWT_SECRET);
        expect(secretStrengthIssue(config.JWT_SECRET)).toBeUndefined();
        expect(refusal(production({ JWT_SECRET: config.JWT_SECRET }))).toBeUndefined();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('JWT_SECRET_PREVIOUS (docs/decisions/058)', () => {
  const PREVIOUS = 'previous-secret-that-is-long-enough-for-hs256';
  it('is unset by default, and taken by the same rule as JWT_SECRET', () => {
    expect(loadConfig(production()).JWT_SECRET_PREVIOUS).toBeUndefined();
    expect(loadConfig(production({ JWT_SECRET_PREVIOUS: PREVIOUS })).JWT_SECRET_PREVIOUS).toBe(PREVIOUS);
    expect(refusal(production({ JWT_SECRET_PREVIOUS: 'abcdefghijklmnopqrstuvwxyzabcdef' }))).toMatch(
      /^ {2}JWT_SECRET_PREVIOUS: is too predictable/m,
    );
    expect(refusal(production({ JWT_SECRET_PREVIOUS: 'short' }))).toMatch(
      /^ {2}JWT_SECRET_PREVIOUS: must be at least 32 characters/m,
    );
  });

  it('is refused when it is JWT_SECRET itself', () => {
    expect(refusal(production({ JWT_SECRET_PREVIOUS: SECRET }))).toContain(
      '  JWT_SECRET_PREVIOUS: is JWT_SECRET itself',
    );
  });
});

describe('limits are configuration (deliverable 4)', () => {
  it('every limit has its documented default', () => {
    expect(loadConfig(dev({}))).toMatchObject({
      LOGIN_MAX_FAILURES: 5,
      LOCKOUT_S: 900,
      LOGIN_ACCOUNT_FREE_FAILURES: 10,
      LOGIN_ACCOUNT_DELAY_S: 2,
      LOGIN_ACCOUNT_MAX_LOCK_S: 900,
      LOGIN_FAILURE_MEMORY_S: ONE_DAY_S,
      LOGIN_KNOWN_ADDRESS_S: 2_592_000,
      REGISTER_MAILS_PER_RECIPIENT: 3,
      REGISTER_MAIL_WINDOW_S: ONE_DAY_S,
      RATE_REGISTERSIM_PER_ACCOUNT: 60,
      SHARE_INVITES_PER_SENDER: 20,
      SHARE_INVITES_PER_RECIPIENT: 5,
      SHARE_INVITE_WINDOW_S: ONE_DAY_S,
      RATE_STOP_SHARE_PER_ACCOUNT: 30,
      BODY_LIMIT_BYTES: 262_144,
    });
  });

  it.each([
    ['LOGIN_ACCOUNT_FREE_FAILURES', '0'],
    ['LOGIN_ACCOUNT_DELAY_S', 'soon'],
    ['LOGIN_ACCOUNT_MAX_LOCK_S', '100000'],
    ['REGISTER_MAILS_PER_RECIPIENT', '-1'],
    ['RATE_REGISTERSIM_PER_ACCOUNT', '1.5'],
    ['SHARE_INVITES_PER_SENDER', '0'],
    ['RATE_STOP_SHARE_PER_ACCOUNT', 'many'],
    ['BODY_LIMIT_BYTES', '100'],
  ])('%s=%s is refused at start, naming it', (key, value) => {
    expect(refusal(dev({ [key]: value }))).toMatch(new RegExp(`^  ${key}: `, 'm'));
  });
});

describe('the web app addresses in the configuration', () => {
  it('outside production, the development addresses and date are the defaults', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/portal-test-data', JWT_SECRET: SECRET });
    expect(config).toMatchObject({
      DOCS_URL: DEVELOPMENT_PORTAL_CONFIG.docsUrl,
      TUTORIALS_URL: DEVELOPMENT_PORTAL_CONFIG.tutorialsUrl,
      SUPPORT_URL: DEVELOPMENT_PORTAL_CONFIG.supportUrl,
      PRIVACY_CONTACT_EMAIL: DEVELOPMENT_PORTAL_CONFIG.privacyEmail,
      PRIVACY_POLICY_EFFECTIVE_DATE: DEVELOPMENT_PORTAL_CONFIG.privacyPolicyEffectiveDate,
    });
  });

  it('a production configuration with every address set starts', () => {
    expect(refusal(production())).toBeUndefined();
    expect(loadConfig(production({ SUPPORT_URL: 'mailto:support@robots.acme.co.uk' })).SUPPORT_URL).toBe(
      'mailto:support@robots.acme.co.uk',
    );
  });

  it.each([
    ['DOCS_URL', 'https://docs.robot-portal.example'],
    ['TUTORIALS_URL', 'https://example.com/tutorials'],
    ['SUPPORT_URL', 'mailto:help@robot-portal.example'],
    ['PRIVACY_CONTACT_EMAIL', 'privacy@robot-portal.example'],
  ])('production refuses to start while %s is a placeholder (%s), naming it', (key, value) => {
    const message = refusal(production({ [key]: value }));
    expect(message).toMatch(new RegExp(`^  ${key}: is a placeholder`, 'm'));
    expect(message?.split('\n')).toHaveLength(2);
  });

  it('production with none of them set names every one, the date included', () => {
    const message = refusal(bareProduction) ?? '';
    for (const key of ['DOCS_URL', 'TUTORIALS_URL', 'SUPPORT_URL', 'PRIVACY_CONTACT_EMAIL'])
      expect(message).toMatch(new RegExp(`^  ${key}: is a placeholder`, 'm'));
    expect(message).toMatch(/^ {2}PRIVACY_POLICY_EFFECTIVE_DATE: is required when NODE_ENV=production$/m);
  });

  it.each([
    ['DOCS_URL', 'ftp://docs.robots.acme.co.uk', 'must be an http:// or https:// URL'],
    ['SUPPORT_URL', 'javascript:alert(1)', 'must be an http(s):// or mailto: URL'],
    ['PRIVACY_CONTACT_EMAIL', 'not-an-address', 'Invalid email address'],
    ['PRIVACY_POLICY_EFFECTIVE_DATE', '01/03/2026', 'must be an ISO date (yyyy-mm-dd)'],
    ['PRIVACY_POLICY_EFFECTIVE_DATE', '2026-02-30', 'must be an ISO date (yyyy-mm-dd)'],
  ])('%s=%s is refused in any environment', (key, value, reason) => {
    expect(refusal(production({ [key]: value }))).toContain(`  ${key}: ${reason}`);
    expect(refusal({ NODE_ENV: 'development', JWT_SECRET: SECRET, [key]: value })).toContain(`  ${key}: ${reason}`);
  });
});

describe('the served index.html carries the configuration', () => {
  let database: Database;
  let webDist: string;
  beforeAll(async () => {
    database = await freshDatabase();
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><html><head><title>Robot Portal</title></head><body><div id="app"></div></body></html>',
    );
    writeFileSync(join(webDist, 'robots.txt'), 'User-agent: *\n');
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'export {};\n');
  });
  afterAll(async () => {
    await database.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  async function page(overrides: Record<string, string>, url: string) {
    const config = testConfig({ WEB_DIST: webDist, ...overrides });
    const app = await buildApp({ config, database, logger: false, serveWeb: true });
    try {
      return await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
    }
  }

  /** The JSON script element's text, parsed by the schema the web app reads it with. */
  function carried(html: string) {
    const match = html.match(
      new RegExp(`<script type="application/json" id="${PORTAL_CONFIG_ELEMENT_ID}">(.*?)</script>`, 's'),
    );
    expect(match).not.toBeNull();
    return { raw: match?.[1] ?? '', config: portalConfigSchema.parse(JSON.parse(match?.[1] ?? '')) };
  }

  it.each(['/', '/dashboard/robot/manager/r-1?tab=x', '/index.html'])(
    'GET %s answers index.html with the configured values in a JSON block in <head>',
    async (url) => {
      const res = await page(DEPLOYMENT_ADDRESSES, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.indexOf(`id="${PORTAL_CONFIG_ELEMENT_ID}"`)).toBeLessThan(res.body.indexOf('</head>'));
      expect(carried(res.body).config).toEqual({
        docsUrl: 'https://docs.robots.acme.co.uk',
        tutorialsUrl: 'https://docs.robots.acme.co.uk/tutorials',
        supportUrl: 'https://help.robots.acme.co.uk',
        privacyEmail: 'privacy@robots.acme.co.uk',
        privacyPolicyEffectiveDate: '2026-03-01',
        robotsPolling: true,
      });
    },
  );

  it('other files are served as they are, hashed assets cached for ever', async () => {
    const robots = await page({}, '/robots.txt');
    expect(robots.body).toBe('User-agent: *\n');
    expect(robots.headers['cache-control']).toBe('no-cache');
    const asset = await page({}, '/assets/index-abc123.js');
    expect(asset.body).toBe('export {};\n');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a value cannot close the script element: < > & are escaped and read back unchanged', async () => {
    const docsUrl = 'https://docs.robots.acme.co.uk/</script><script>alert(1)</script>?a=1&b=<!--';
    const res = await page({ DOCS_URL: docsUrl }, '/');
    const { raw, config } = carried(res.body);
    expect(raw).not.toMatch(/[<>&]/);
    expect(raw).toContain('\\u003c/script\\u003e');
    expect(config.docsUrl).toBe(docsUrl);
    expect(res.body.match(/<script/g)).toHaveLength(1);
  });
});

describe('the passkeys relying party (docs/decisions/032)', () => {
  const webauthn = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: '/tmp/portal-test-data', JWT_SECRET: SECRET, ...env }).webauthn;

  it.each([
    ['localhost', { PUBLIC_URL: 'http://localhost:3000' }, 'localhost', ['http://localhost:3000']],
    [
      'a loopback address: WebAuthn takes no IP',
      { PUBLIC_URL: 'http://127.0.0.1:4173' },
      'localhost',
      ['http://localhost:4173'],
    ],
    [
      'an https domain',
      { PUBLIC_URL: 'https://portal.acme.co.uk' },
      'portal.acme.co.uk',
      ['https://portal.acme.co.uk'],
    ],
    ['an IP address: off', { PUBLIC_URL: 'http://10.0.0.5:3000' }, undefined, []],
    [
      'plain http off localhost: off, and the portal still starts',
      { PUBLIC_URL: 'http://portal.internal' },
      undefined,
      [],
    ],
    [
      'a parent domain and two origins',
      {
        PUBLIC_URL: 'https://portal.acme.co.uk',
        WEBAUTHN_RP_ID: 'acme.co.uk',
        WEBAUTHN_ORIGINS: 'https://portal.acme.co.uk, https://acme.co.uk/',
      },
      'acme.co.uk',
      ['https://portal.acme.co.uk', 'https://acme.co.uk'],
    ],
  ])('%s', (_what, env, rpId, origins) => {
    expect(webauthn(env)).toEqual({ rpId, origins });
  });

  it.each([
    [
      'an origin off the RP id',
      { WEBAUTHN_RP_ID: 'acme.co.uk', WEBAUTHN_ORIGINS: 'https://evil.example' },
      /WEBAUTHN_ORIGINS: https:\/\/evil\.example is not on WEBAUTHN_RP_ID/,
    ],
    [
      'plain http off localhost',
      { WEBAUTHN_RP_ID: 'acme.co.uk', WEBAUTHN_ORIGINS: 'http://portal.acme.co.uk' },
      /must be https:\/\//,
    ],
    ['a path', { WEBAUTHN_RP_ID: 'acme.co.uk', WEBAUTHN_ORIGINS: 'https://acme.co.uk/login' }, /an origin alone/],
    ['an address as RP id', { WEBAUTHN_RP_ID: '10.0.0.5' }, /WEBAUTHN_RP_ID: must be a domain name/],
    ['a URL as RP id', { WEBAUTHN_RP_ID: 'https://acme.co.uk' }, /WEBAUTHN_RP_ID: must be a domain name/],
  ])('refuses %s, naming the variable', (_what, env, message) => {
    expect(() => webauthn({ PUBLIC_URL: 'https://portal.acme.co.uk', ...env })).toThrow(message);
  });
});
