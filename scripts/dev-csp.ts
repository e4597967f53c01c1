// The Content-Security-Policy of `npm run dev`'s pages (scripts/dev.ts, docs/decisions/054): the
// production pages' policy (apps/server/src/plugins/security.ts) with what Vite's hot reload needs
// added here, in development only, so a page that breaks the production policy breaks in development
// too, and the production server and build carry none of it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { inlineScriptHashes } from '../apps/server/src/lib/web-pages.ts';
import { pageContentSecurityPolicy } from '../apps/server/src/plugins/security.ts';

/** A Host header as a browser sends it for a loopback development server (name or address, and port). */
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * The production policy, plus: the development page's own inline scripts allowed by their hashes
 * (Vite adds React's hot-reload preamble to index.html's; production allows its pages' inline scripts
 * the same way), and hot reload's WebSocket on the address the page was loaded from.
 */
export function developmentContentSecurityPolicy(html: string, host: string): string {
  const policy = pageContentSecurityPolicy({ scriptHashes: inlineScriptHashes(html) });
  if (!HOST.test(host)) return policy;
  return policy.replace(/(^|; )connect-src ([^;]*)/, `$1connect-src $2 ws://${host}`);
}

/** Sets the development policy on every HTML page the Vite dev server answers. */
export function developmentCsp(fallbackHost: string): Plugin {
  return {
    name: 'portal-development-csp',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
        res.end = ((...args: unknown[]) => {
          const [body] = args;
          const type = String(res.getHeader('content-type') ?? '');
          if (!res.headersSent && type.startsWith('text/html') && (typeof body === 'string' || Buffer.isBuffer(body)))
            res.setHeader(
              'content-security-policy',
              developmentContentSecurityPolicy(String(body), req.headers.host ?? fallbackHost),
            );
          return end(...args);
        }) as ServerResponse['end'];
        next();
      });
    },
  };
}
