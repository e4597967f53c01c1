import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { withoutRequests } from './vite-plugins';

const strip = (code: string) => withoutRequests(code, parseSync('contract.js', code).program);

describe('withoutRequests (the browser build of the contract)', () => {
  const contract = [
    'export const svc = service("s", "/api/s", {',
    '  One: action({',
    "    summary: 'Does one thing.',",
    '    auth: "bearer",',
    '    request: z.object({',
    '      email: normalisedEmail,',
    '    }),',
    '    response: response({ ok: z.boolean() }),',
    '  }),',
    '});',
  ].join('\n');

  it('leaves out the request and the summary of an action, and nothing else', () => {
    const out = strip(contract) as string;
    const svc = new Function(
      'service',
      'action',
      'z',
      'normalisedEmail',
      'response',
      `${out.replace('export ', '')}; return svc;`,
    )(
      (_n: string, _p: string, actions: object) => actions,
      (def: object) => def,
      { object: () => 'request schema', boolean: () => 'boolean' },
      'email',
      (shape: object) => shape,
    );
    expect(svc).toEqual({ One: { summary: '', auth: 'bearer', request: undefined, response: { ok: 'boolean' } } });
  });

  it('keeps every other line and column where it was (the source map stays right)', () => {
    const out = strip(contract) as string;
    expect(out).toHaveLength(contract.length);
    expect(out.split('\n').map((line) => line.length)).toEqual(contract.split('\n').map((line) => line.length));
    expect(out.split('\n')[7]).toBe(contract.split('\n')[7]);
  });

  it.each([
    ['no action', 'export const x = z.object({ request: z.string(), summary: "kept" });'],
    ['a shorthand request', 'const request = z.string(); export const a = action({ request, summary: s });'],
    ['a call of another function', 'export const a = other({ request: z.string(), summary: "kept" });'],
  ])('changes nothing with %s', (_name, code) => {
    expect(strip(code)).toBeUndefined();
  });
});
