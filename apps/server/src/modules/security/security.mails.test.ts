import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.ts';
import { newBrowserMail, passkeyAddedMail } from './security.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });
const at = new Date('2026-03-05T14:00:00Z');
const securityLink = 'https://portal.example.test/dashboard/profile#security';

describe('security mails, in the one layout (lib/mail-layout.ts)', () => {
  it.each(['password', 'passkey'] as const)('new browser (signed in with a %s)', (method) => {
    expect(
      parts(
        newBrowserMail({
          to: 'ada@example.test',
          name: 'Ada',
          browser: 'Firefox on Linux',
          address: '203.0.113.7',
          at,
          method,
          securityLink,
        }),
      ),
    ).toMatchSnapshot();
  });

  it('passkey added', () => {
    expect(
      parts(passkeyAddedMail({ to: 'ada@example.test', name: 'Ada', passkeyName: 'Work laptop', at, securityLink })),
    ).toMatchSnapshot();
  });

  it("the passkey's name and the browser, which the user and the browser choose, are escaped in the HTML part", () => {
    const passkey = passkeyAddedMail({
      to: 'ada@example.test',
      name: 'Ada',
      passkeyName: '<img src=x onerror=alert(1)>',
      at,
      securityLink,
    });
    expect(passkey.html).toContain('named &quot;&lt;img src=x onerror=alert(1)&gt;&quot; was added');
    expect(passkey.html).not.toContain('<img');
    const browser = newBrowserMail({
      to: 'ada@example.test',
      name: 'Ada',
      browser: '<script>x</script>',
      address: '',
      at,
      method: 'password',
      securityLink,
    });
    expect(browser.html).toContain('&lt;script&gt;x&lt;/script&gt;, from the address unknown');
    expect(browser.html).not.toContain('<script>');
  });
});
