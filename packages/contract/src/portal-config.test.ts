import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_PORTAL_CONFIG, portalConfigJson, portalConfigSchema } from './portal-config.ts';

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
});
