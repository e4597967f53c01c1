import { describe, expect, it } from 'vitest';
import { acknowledgementMail, inboxNotificationMail, staffReplyMail } from './support.mails.ts';

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

describe('the support thread mails, in the same layout', () => {
  it('a staff reply: the ticket id in the subject, the reply, and the portal to answer in', () => {
    const mail = staffReplyMail(
      'ada@example.test',
      'SR-ABCD-2345',
      'My robot stalls',
      'Update the hub.\nThen retry.',
      'https://portal.example',
    );
    expect(mail.subject).toBe('[SR-ABCD-2345] Reply to your Robot Portal support request');
    expect(mail.text).toContain(
      'We have replied to your support request "My robot stalls":\n\nUpdate the hub.\nThen retry.',
    );
    expect(mail.text).toContain('To answer, please write in the portal at /dashboard/support');
    expect(mail.link).toBe('https://portal.example/dashboard/support?ticket=SR-ABCD-2345');
    expect(mail.html).toContain('Update the hub.<br>Then retry.');
  });

  it('the inbox notification names the ticket, category, subject and customer, and links the console', () => {
    const request = {
      ticketId: 'SR-ABCD-2345',
      category: 'billing' as const,
      subject: '<b>Invoice</b>',
      customerEmail: 'ada@example.test',
    };
    const fresh = inboxNotificationMail('inbox@example.test', request, 'new', 'https://portal.example');
    expect(fresh.subject).toBe('[SR-ABCD-2345] New support request: <b>Invoice</b>');
    expect(fresh.text).toContain(
      'Category: Billing and subscriptions\nSubject: <b>Invoice</b>\nCustomer: ada@example.test',
    );
    expect(fresh.link).toBe('https://portal.example/admin/support/SR-ABCD-2345');
    expect(fresh.html).toContain('Subject: &lt;b&gt;Invoice&lt;/b&gt;');
    expect(fresh.html).not.toContain('<b>Invoice</b>');
    const answered = inboxNotificationMail('inbox@example.test', request, 'customer_reply', 'https://portal.example');
    expect(answered.subject).toBe('[SR-ABCD-2345] Customer replied: <b>Invoice</b>');
    expect(answered.text).toContain('The customer answered in SR-ABCD-2345.');
  });
});
