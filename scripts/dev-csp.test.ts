import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageContentSecurityPolicy } from '../apps/server/src/plugins/security.ts';
import { developmentContentSecurityPolicy, developmentCsp } from './dev-csp.ts';

/** `npm run dev`'s pages: production's policy plus hot reload's needs, nothing else (docs/decisions/054). */
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0], d] as const));
// A page as Vite serves it in development: React's hot-reload preamble, Vite's client, index.html's own script.
const preamble = 'import { injectIntoGlobalHook } from "/@react-refresh";\ninjectIntoGlobalHook(window);';
const theme = "document.documentElement.classList.add('dark');";
const html = `<html><head><script type="module">${preamble}</script><script type="module" src="/@vite/client"></script><script>${theme}</script></head></html>`;

describe('developmentContentSecurityPolicy', () => {
  const dev = directives(developmentContentSecurityPolicy(html, 'localhost:5173'));
  const production = directives(pageContentSecurityPolicy({}));

  it("allows the page's inline scripts by their hashes, never inline scripts at large or eval", () => {
    expect(dev.get('script-src')).toBe(`script-src 'self' ${sha(preamble)} ${sha(theme)}`);
  });

  it("adds hot reload's WebSocket on the page's own address", () => {
    expect(dev.get('connect-src')).toBe("connect-src 'self' ws://localhost:5173");
  });

  it("keeps every other directive of production's", () => {
    for (const [name, directive] of production)
      if (name !== 'script-src' && name !== 'connect-src') expect(dev.get(name), name).toBe(directive);
    expect([...dev.keys()]).toEqual([...production.keys()]);
  });

  it('a Host header that is not a host adds nothing to the policy', () => {
    const policy = developmentContentSecurityPolicy(html, "evil.example; script-src 'unsafe-eval'");
    expect(directives(policy).get('connect-src')).toBe("connect-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
  });

  it("is the development server's alone: the plugin applies to `vite serve`, never to a build", () => {
    expect(developmentCsp('localhost:5173').apply).toBe('serve');
  });
});
