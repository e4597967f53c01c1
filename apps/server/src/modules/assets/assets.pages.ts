import { PRODUCT_NAME } from '@portal/contract';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../lib/mailer.ts';

/** What a customer is told while storage is down: the link's page and GetDownload's 503 alike. */
export const DOWNLOADS_UNAVAILABLE = 'Downloads are unavailable right now, please try again in a few minutes';
/** Seconds a client is asked to wait after a 503 of storage (Retry-After). */
export const STORAGE_RETRY_AFTER_S = 120;

/** Why a download link did not start a download. */
export type LinkFailure = 'expired' | 'forged' | 'missing' | 'unavailable' | 'refused' | 'failed';

const PAGES: Record<LinkFailure, { status: number; title: string; text: string }> = {
  expired: {
    status: 403,
    title: 'This download link has expired',
    text: 'Download links work for a few minutes. Start the download again from the Downloads page.',
  },
  forged: {
    status: 403,
    title: 'This download link is not valid',
    text: 'Start the download again from the Downloads page.',
  },
  missing: {
    status: 404,
    title: 'This file is no longer available',
    text: 'The Downloads page offers the current versions.',
  },
  unavailable: { status: 503, title: 'Downloads are unavailable', text: `${DOWNLOADS_UNAVAILABLE}.` },
  refused: {
    status: 400,
    title: 'This download link cannot be used',
    text: 'Start the download again from the Downloads page.',
  },
  failed: {
    status: 500,
    title: 'Something went wrong',
    text: 'The download could not be started. Please try again in a few minutes.',
  },
};

// Light and dark, no script, nothing loaded: the page CSP allows the inline style.
const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1a1d21;line-height:1.5}
main{max-width:560px;margin:0 auto;padding:48px 20px}
section{background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 2px #0002}
h1{font-size:1.375rem;margin:0 0 8px}p{margin:8px 0}.ref{font-size:.875rem;color:#4b5563;overflow-wrap:anywhere}
a.button{display:inline-block;margin-top:16px;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:600}
.brand{font-weight:600;color:#4b5563;margin-bottom:16px}
@media (prefers-color-scheme:dark){body{background:#111418;color:#e6e8eb}section{background:#1b1f24}.ref,.brand{color:#9ca3af}a.button{background:#3b82f6;color:#0b0d10}}`;

/** The HTML page a download link answers when it cannot start a download, with the failure's status. */
export function linkFailurePage(failure: LinkFailure, opts: { requestId: string; portalUrl: string }): string {
  const page = PAGES[failure];
  // A reference only where the failure is ours: support finds the request's log lines by it.
  const reference =
    page.status >= 500 ? `<p class="ref">Reference: <code>${escapeHtml(opts.requestId)}</code></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(page.title)} · ${PRODUCT_NAME}</title><style>${STYLE}</style></head><body><main><p class="brand">${PRODUCT_NAME}</p><section><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.text)}</p>${reference}<a class="button" href="${escapeHtml(`${opts.portalUrl}/dashboard/downloads`)}">Back to Downloads</a></section></main></body></html>`;
}

/** Sends the page of a failure, never cached; a 503 asks the browser to come back later. */
export function sendLinkFailure(
  reply: FastifyReply,
  failure: LinkFailure,
  opts: { requestId: string; portalUrl: string; status?: number },
): FastifyReply {
  if (failure === 'unavailable') reply.header('retry-after', String(STORAGE_RETRY_AFTER_S));
  return reply
    .status(opts.status ?? PAGES[failure].status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(linkFailurePage(failure, opts));
}
