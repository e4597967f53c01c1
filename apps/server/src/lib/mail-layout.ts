import { PRODUCT_NAME } from '@portal/contract';
import { escapeHtml, type Mail } from './mailer.ts';

/** A block of a mail's body: a paragraph, or lines that belong together (an address, a receipt's rows). */
export type MailBlock = string | { lines: readonly string[] };

export interface MailContent {
  to: string;
  subject: string;
  /** "Hello Ada,"; without a name, "Hello," (a name the reader did not choose stays out: decision 026) */
  name?: string;
  body: readonly MailBlock[];
  /** what the mail asks the reader to do: a button in the HTML part, "label: address" in the text */
  action?: { href: string; label: string };
}

const FOOTER = `— ${PRODUCT_NAME}`;
const BUTTON =
  'display:inline-block;padding:10px 18px;border-radius:6px;background:#0a4ac5;color:#ffffff;text-decoration:none;font-weight:bold';

/**
 * Every mail the portal sends, in one layout: the greeting, the body, the action and the footer,
 * as plain text and as its HTML twin from the same content. Every text in the HTML is escaped
 * (names, passkey names and models are the users' own).
 */
export function layoutMail({ to, subject, name, body, action }: MailContent): Mail {
  const greeting = name === undefined ? 'Hello,' : `Hello ${name},`;
  const text = [
    greeting,
    ...body.map((b) => (typeof b === 'string' ? b : b.lines.join('\n'))),
    ...(action ? [`${action.label}: ${action.href}`] : []),
    FOOTER,
  ].join('\n\n');
  const paragraph = (b: MailBlock) =>
    `<p>${typeof b === 'string' ? escapeHtml(b) : b.lines.map(escapeHtml).join('<br>')}</p>`;
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">',
    paragraph(greeting),
    ...body.map(paragraph),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.href)}" style="${BUTTON}">${escapeHtml(action.label)}</a></p>`,
          `<p style="color:#666;font-size:12px">${escapeHtml(action.href)}</p>`,
        ]
      : []),
    paragraph(FOOTER),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, ...(action ? { link: action.href } : {}) };
}

/** "5 January 2027", as customers read dates in the portal (en-GB). */
export function mailDay(d: Date): string {
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "5 March 2026 at 14:00 UTC": a mail cannot know the reader's time zone, so it names the one it uses. */
export function mailTime(at: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}
