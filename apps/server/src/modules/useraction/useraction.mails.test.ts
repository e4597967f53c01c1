import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.ts';
import { alreadyRegisteredMail, passwordChangedMail, resetMail, verificationMail } from './useraction.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });
const url = 'https://portal.example.test';

describe('account mails, in the one layout (lib/mail-layout.ts)', () => {
  it('verification', () => {
    expect(parts(verificationMail('ada@example.test', `${url}/auth/verify/t0k3n`, 24))).toMatchSnapshot();
  });

  it('already registered', () => {
    expect(
      parts(alreadyRegisteredMail('ada@example.test', 'Ada', `${url}/auth/login`, `${url}/auth/login?forgot=1`)),
    ).toMatchSnapshot();
  });

  it('reset', () => {
    expect(parts(resetMail('ada@example.test', 'Ada', `${url}/auth/reset/t0k3n`, 30))).toMatchSnapshot();
  });

  it('password changed', () => {
    expect(parts(passwordChangedMail('ada@example.test', 'Ada'))).toMatchSnapshot();
  });

  it('a name is escaped in the HTML part', () => {
    const mail = passwordChangedMail('ada@example.test', '<b>Ada</b> & "Co"');
    expect(mail.html).toContain('<p>Hello &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;Co&quot;,</p>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain('Hello <b>Ada</b> & "Co",');
  });
});
