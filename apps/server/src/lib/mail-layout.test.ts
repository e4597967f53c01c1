import { describe, expect, it } from 'vitest';
import { layoutMail, mailDay, mailTime } from './mail-layout.ts';

describe('one layout for every mail: text and HTML from one content', () => {
  it('greets, writes the body, offers the action and signs off, in both parts', () => {
    const mail = layoutMail({
      to: 'ada@example.test',
      subject: 'A subject',
      name: 'Ada',
      body: ['The first paragraph.', { lines: ['Lines that', 'belong together'] }, 'The last paragraph.'],
      action: { href: 'https://portal.example.test/dashboard', label: 'Open the dashboard' },
    });
    expect(mail.to).toBe('ada@example.test');
    expect(mail.subject).toBe('A subject');
    expect(mail.link).toBe('https://portal.example.test/dashboard');
    expect(mail.text).toMatchInlineSnapshot(`
      "Hello Ada,

      The first paragraph.

      Lines that
      belong together

      The last paragraph.

      Open the dashboard: https://portal.example.test/dashboard

      — Robot Portal"
    `);
    expect(mail.html).toMatchInlineSnapshot(`
      "<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">
      <p>Hello Ada,</p>
      <p>The first paragraph.</p>
      <p>Lines that<br>belong together</p>
      <p>The last paragraph.</p>
      <p><a href="https://portal.example.test/dashboard" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#0a4ac5;color:#ffffff;text-decoration:none;font-weight:bold">Open the dashboard</a></p>
      <p style="color:#666;font-size:12px">https://portal.example.test/dashboard</p>
      <p>— Robot Portal</p>
      </body></html>"
    `);
  });

  it('without a name greets "Hello,"; without an action has no link', () => {
    const mail = layoutMail({ to: 'a@example.test', subject: 's', body: ['Only this.'] });
    expect(mail.text).toBe('Hello,\n\nOnly this.\n\n— Robot Portal');
    expect(mail.html).not.toContain('<a ');
    expect(mail.link).toBeUndefined();
  });

  it("escapes every text in the HTML part (the users' own among them), and leaves the text part as written", () => {
    const hostile = `<script>alert("x")</script> & 'quotes'`;
    const mail = layoutMail({
      to: 'a@example.test',
      subject: 's',
      name: hostile,
      body: [hostile, { lines: [hostile, hostile] }],
      action: { href: `https://portal.example.test/?a=1&b="><img src=x>`, label: hostile },
    });
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;';
    expect(mail.html).not.toMatch(/<script|<img|'quotes'/);
    expect(mail.html).toContain(`<p>Hello ${escaped},</p>`);
    expect(mail.html).toContain(`<p>${escaped}</p>`);
    expect(mail.html).toContain(`<p>${escaped}<br>${escaped}</p>`);
    expect(mail.html).toContain(`href="https://portal.example.test/?a=1&amp;b=&quot;&gt;&lt;img src=x&gt;"`);
    expect(mail.html).toContain(`>${escaped}</a>`);
    expect(mail.text).toContain(`Hello ${hostile},`);
    expect(mail.text).toContain(`${hostile}: https://portal.example.test/?a=1&b="><img src=x>`);
  });

  it('dates: a day as the portal writes it, a moment with its time zone named', () => {
    expect(mailDay(new Date('2027-01-05T23:30:00Z'))).toBe('5 January 2027');
    expect(mailTime(new Date('2026-03-05T14:00:00Z'))).toBe('5 March 2026 at 14:00 UTC');
  });
});
