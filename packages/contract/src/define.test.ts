import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { action, alias, response, service } from './define.ts';
import { license } from './license.ts';

const ping = action({ summary: 'ping', auth: 'none', request: z.object({}), response: response({}) });

describe('aliases (docs/decisions/062)', () => {
  it("GetLicenses is another name of the spec's GetLicences, with its schemas and auth", () => {
    expect(license.actions.GetLicenses.aliasOf).toBe('GetLicences');
    expect(license.actions.GetLicences.aliasOf).toBeUndefined();
    expect(license.actions.GetLicenses.request).toBe(license.actions.GetLicences.request);
    expect(license.actions.GetLicenses.response).toBe(license.actions.GetLicences.response);
    expect(license.actions.GetLicenses.auth).toBe('bearer');
  });

  it.each([
    ['an action the service lacks', { Ping: ping, Pong: alias('Missing', ping) }],
    ['another alias', { Ping: ping, Pong: alias('Ping', ping), Pung: alias('Pong', ping) }],
  ])('a service refuses an alias of %s', (_case, actions) => {
    expect(() => service('test', '/api/test', actions)).toThrow(/an alias of \w+, which is no action of its own/);
  });
});
