import { describe, expect, it } from 'vitest';
import { acknowledgementMail } from './support.mails.ts';

describe('the support mail, in the one layout (lib/mail-layout.ts)', () => {
  it('acknowledgement', () => {
    const { subject, text, html, link } = acknowledgementMail('ada@example.test', 'SR-ABCD-2345', 'My robot stalls');
    expect({ subject, link, text, html }).toMatchSnapshot();
  });

  it("the request's subject, the user's own words, is escaped in the HTML part", () => {
    const mail = acknowledgementMail('ada@example.test', 'SR-ABCD-2345', '</p><script>x</script>');
    expect(mail.html).toContain('support request &quot;&lt;/p&gt;&lt;script&gt;x&lt;/script&gt;&quot;.');
    expect(mail.html).not.toContain('<script>');
  });
});
