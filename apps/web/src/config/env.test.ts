import { DEVELOPMENT_PORTAL_CONFIG, type PortalConfig, portalConfigJson } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { env, readPortalConfig } from './env';

const deployed: PortalConfig = {
  docsUrl: 'https://docs.robots.acme.co.uk',
  tutorialsUrl: 'https://docs.robots.acme.co.uk/tutorials',
  supportUrl: 'mailto:support@robots.acme.co.uk',
  privacyEmail: 'privacy@robots.acme.co.uk',
  privacyPolicyEffectiveDate: '2026-03-01',
};

/** A page as the server answers it: the JSON block in <head>. */
function page(json: string | undefined): Document {
  const doc = document.implementation.createHTMLDocument('Robot Portal');
  if (json !== undefined) {
    const script = doc.createElement('script');
    script.type = 'application/json';
    script.id = 'portal-config';
    script.textContent = json;
    doc.head.append(script);
  }
  return doc;
}

describe('readPortalConfig', () => {
  it.each([true, false])('reads the block the server wrote (production build: %s)', (production) => {
    expect(readPortalConfig(page(portalConfigJson(deployed)), production)).toEqual(deployed);
  });

  it('reads escaped values back unchanged', () => {
    const docsUrl = 'https://docs.robots.acme.co.uk/</script>?a=1&b=2';
    expect(readPortalConfig(page(portalConfigJson({ ...deployed, docsUrl })), true).docsUrl).toBe(docsUrl);
  });

  it.each([
    ['no document', undefined],
    ['no block', page(undefined)],
    ['an empty block', page('')],
  ])('outside a production build, %s falls back to the development addresses', (_name, doc) => {
    expect(readPortalConfig(doc, false)).toEqual(DEVELOPMENT_PORTAL_CONFIG);
  });

  it('a production build without the block fails at start', () => {
    expect(() => readPortalConfig(page(undefined), true)).toThrow(/no #portal-config block/);
  });

  it('a bad block fails at start, listing every bad field', () => {
    const bad = { ...deployed, docsUrl: 'javascript:alert(1)', privacyPolicyEffectiveDate: '01/03/2026' };
    let message = '';
    try {
      readPortalConfig(page(JSON.stringify(bad)), false);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^ {2}docsUrl: /m);
    expect(message).toMatch(/^ {2}privacyPolicyEffectiveDate: /m);
    expect(() => readPortalConfig(page('{not json'), false)).toThrow(/is not JSON/);
  });
});

describe('env', () => {
  it('under unit tests (no server, not a production build) carries the development addresses', () => {
    expect(env).toMatchObject(DEVELOPMENT_PORTAL_CONFIG);
    expect(env.production).toBe(false);
  });
});
