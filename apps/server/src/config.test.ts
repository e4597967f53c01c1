import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_PORTAL_CONFIG, PORTAL_CONFIG_ELEMENT_ID, portalConfigSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { ConfigError, isPlaceholderAddress, loadConfig } from './config.ts';
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
