import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Undoes quoted-printable soft line breaks and escapes, as the server's mailer writes long lines. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export interface ReadMailOptions {
  /** only a mail whose text matches */
  subject?: RegExp;
  /** only mails written at or after this epoch ms */
  after?: number;
  timeoutMs?: number;
}

/**
 * The newest mail to `email` in a server's outbox (`DATA_DIR/outbox`, one `.eml` a message, named
 * `<epoch ms>-<address>-<id>.eml`), waiting for it to be written.
 */
export async function readMail(dataDir: string, email: string, opts: ReadMailOptions = {}): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const safe = email.replace(/[^a-z0-9@._-]/gi, '_');
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((f) => f.includes(`-${safe}-`) && Number(f.split('-')[0]) >= (opts.after ?? 0))
      .sort()
      .reverse();
    for (const f of files) {
      const text = decodeQuotedPrintable(await readFile(join(outbox, f), 'utf8'));
      if (!opts.subject || opts.subject.test(text)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail for ${email} in ${outbox}`);
}

/** The first link in a mail whose path starts with `path` (e.g. `/auth/verify/`). */
export function linkIn(mail: string, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${path.replace(/\//g, '\\/')}[^\\s"<>]+`).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail`);
  return match[0];
}
