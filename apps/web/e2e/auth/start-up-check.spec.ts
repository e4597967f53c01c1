import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { baseURL as mainUrl } from '../../../../playwright.config';
import { expect, loginByApi, test } from '../fixtures';

/**
 * The start-up check (spec/000 §4 Session: get-self with the stored refresh token) of a page the
 * user leaves while its answer arrives. Leaving a page aborts its requests; an answer the page
 * never read whole refuses nothing, so the session must survive (issue 32 item 10: the passkeys
 * spec lost it this way when its next `goto` came while /auth/complete's check was answered).
 */

/**
 * A proxy in front of the main server, a site of its own to the browser, that sends the first half
 * of a get-self answer and keeps the rest while `hold` is set: the page is left mid-answer every time.
 */
async function halfAnsweringProxy() {
  const upstream = new URL(mainUrl);
  const held: { waiting?: () => void } = {};
  const proxy = {
    hold: true,
    url: '',
    /** Resolves once a get-self answer is held half sent. */
    heldOnce: () => new Promise<void>((resolve) => (held.waiting = resolve)),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // The server answers its own address only (and its own Origin): the proxy speaks as the browser would there.
      const headers = {
        ...req.headers,
        host: upstream.host,
        ...(req.headers.origin ? { origin: upstream.origin } : {}),
      };
      const forwarded = request({
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      });
      forwarded.on('response', (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const whole = Buffer.concat(parts);
          const { 'transfer-encoding': _chunked, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': whole.length });
          const getSelf = req.method === 'POST' && body.includes('"action":"get-self"');
          if (!(getSelf && proxy.hold)) return void res.end(whole);
          res.write(whole.subarray(0, Math.floor(whole.length / 2)));
          held.waiting?.();
        });
      });
      forwarded.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    proxy,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

test('a page left while its start-up check is being answered keeps the session', async ({ page, account }) => {
  const { proxy, close } = await halfAnsweringProxy();
  try {
    const { pair, user } = await loginByApi(account.email, account.password);
    await page.context().setStorageState({
      cookies: [],
      origins: [
        {
          origin: proxy.url,
          localStorage: [
            { name: 'access_token', value: pair.access_token },
            { name: 'refresh_token', value: pair.refresh_token },
            { name: 'user_email', value: user.email },
            { name: 'user_id', value: user.user_id },
            { name: 'hasCompletedFirstVisit', value: 'true' },
          ],
        },
      ],
    });
    const held = proxy.heldOnce();
    await page.goto(`${proxy.url}/dashboard/user/profile`, { waitUntil: 'commit' });
    await held;
    // Left with half of get-self's answer read: the browser aborts the rest.
    proxy.hold = false;
    await page.goto(`${proxy.url}/dashboard/user/profile`);
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email);
  } finally {
    await close();
  }
});
