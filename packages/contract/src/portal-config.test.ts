import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_PORTAL_CONFIG, portalConfigIssues, portalConfigJson } from './portal-config.ts';
import { portalConfigSchema } from './portal-config-schema.ts';

describe('portalConfigJson', () => {
  it.each([
    ['a closing tag', 'https://docs.acme.co.uk/</script>', 'https://docs.acme.co.uk/\\u003c/script\\u003e'],
    ['a comment opener', 'https://docs.acme.co.uk/<!--', 'https://docs.acme.co.uk/\\u003c!--'],
    ['an ampersand', 'https://docs.acme.co.uk/?a=1&b=2', 'https://docs.acme.co.uk/?a=1\\u0026b=2'],
    ['line separators', 'https://docs.acme.co.uk/\u2028\u2029', 'https://docs.acme.co.uk/\\u2028\\u2029'],
    ['a plain address', 'https://docs.acme.co.uk/guide', 'https://docs.acme.co.uk/guide'],
  ])('escapes %s and reads back unchanged', (_name, docsUrl, written) => {
    const json = portalConfigJson({ ...DEVELOPMENT_PORTAL_CONFIG, docsUrl });
    expect(json).toContain(`"docsUrl":"${written}"`);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json).docsUrl).toBe(docsUrl);
  });

  it('the development configuration is valid', () => {
    expect(portalConfigSchema.parse(DEVELOPMENT_PORTAL_CONFIG)).toEqual(DEVELOPMENT_PORTAL_CONFIG);
  });

  it('the development configuration is valid', () => {
    expect(portalConfigIssues(DEVELOPMENT_PORTAL_CONFIG)).toEqual([]);
  });
});

describe('portalConfigIssues agrees with portalConfigSchema', () => {
  const good = DEVELOPMENT_PORTAL_CONFIG;
  it.each([
    ['the development configuration', good, []],
    ['a mailto support address', { ...good, supportUrl: 'mailto:help@acme.co.uk' }, []],
    ['a javascript: docs address', { ...good, docsUrl: 'javascript:alert(1)' }, ['docsUrl']],
    ['a mailto tutorials address', { ...good, tutorialsUrl: 'mailto:a@b.co' }, ['tutorialsUrl']],
    ['an ftp support address', { ...good, supportUrl: 'ftp://acme.co.uk' }, ['supportUrl']],
    ['not an address', { ...good, docsUrl: 'docs' }, ['docsUrl']],
    ['an email without a domain', { ...good, privacyEmail: 'privacy@' }, ['privacyEmail']],
    [
      'a date written the British way',
      { ...good, privacyPolicyEffectiveDate: '01/03/2026' },
      ['privacyPolicyEffectiveDate'],
    ],
    [
      'a day that does not exist',
      { ...good, privacyPolicyEffectiveDate: '2026-02-30' },
      ['privacyPolicyEffectiveDate'],
    ],
    ['a missing field', { ...good, privacyEmail: undefined }, ['privacyEmail']],
    ['a number for a string', { ...good, docsUrl: 42 }, ['docsUrl']],
    ['polling switched off', { ...good, robotsPolling: false }, []],
    ['polling as a word', { ...good, robotsPolling: 'no' }, ['robotsPolling']],
  ])('%s', (_name, value, fields) => {
    expect(portalConfigIssues(value).map((i) => i.field)).toEqual(fields);
    const parsed = portalConfigSchema.safeParse(value);
    expect(parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => String(i.path[0])))]).toEqual(fields);
  });
});
