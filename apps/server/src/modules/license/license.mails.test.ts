import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.ts';
import { type ShareMailInput, sharedWithYouMail, shareInvitationMail } from './license.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });
const share: ShareMailInput = {
  to: 'grace@example.test',
  ownerEmail: 'ada@example.test',
  model: 'Pepper',
  until: new Date('2027-03-05T14:00:00Z'),
};

describe('sharing mails, in the one layout (lib/mail-layout.ts)', () => {
  it('shared with you', () => {
    expect(parts(sharedWithYouMail(share, 'https://portal.example.test/dashboard'))).toMatchSnapshot();
  });

  it('share invitation', () => {
    expect(parts(shareInvitationMail(share, 'https://portal.example.test/auth/signup'))).toMatchSnapshot();
  });

  it("the owner's address and the model are escaped in the HTML part", () => {
    const mail = sharedWithYouMail(
      { ...share, ownerEmail: '"<i>x</i>"@example.test', model: 'Nao & <Pepper>' },
      'https://portal.example.test/dashboard',
    );
    expect(mail.html).toContain(
      '&quot;&lt;i&gt;x&lt;/i&gt;&quot;@example.test shared their Nao &amp; &lt;Pepper&gt; robot',
    );
    expect(mail.html).not.toMatch(/<i>|<Pepper>/);
  });
});
