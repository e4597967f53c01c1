import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.ts';
import { staffInvitationMail } from './staff.mails.ts';

const parts = ({ subject, text, html, link }: Mail) => ({ subject, link, text, html });

describe('staff mails, in the one layout (lib/mail-layout.ts)', () => {
  it('the invitation carries the enrolment link and its end', () => {
    const mail = staffInvitationMail({
      to: 'grace@example.test',
      role: 'finance',
      link: 'https://portal.example.test/admin/enrol?token=abc',
      expiresAt: new Date('2026-03-06T14:00:00Z'),
    });
    expect(mail.text).toContain('Register your passkey: https://portal.example.test/admin/enrol?token=abc');
    expect(mail.text).toContain('until 6 March 2026 at 14:00 UTC');
    expect(parts(mail)).toMatchSnapshot();
  });
});
