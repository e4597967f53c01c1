import { AVATAR_DEFAULT_SIZE } from '@/config/constants';

/** Avatar services key on the trimmed, lower-cased address. */
export function normaliseAvatarEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `d=404` makes the service answer 404 when the user has no picture, so the initials show instead. */
export function avatarUrl(baseUrl: string, hash: string, size: number = AVATAR_DEFAULT_SIZE): string {
  return `${baseUrl.replace(/\/+$/, '')}/${hash}?s=${size}&d=404`;
}

export function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * SHA-256 of the normalised email, or null where Web Crypto is missing (pages served over plain
 * HTTP from a non-local host): then the initials are shown.
 */
export async function emailHash(email: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(normaliseAvatarEmail(email)));
  return toHex(digest);
}

/** Up to two letters: first and last word of the name, else the first letter of the email. */
export function initialsOf(name: string | null | undefined, email: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const firstLetter = (word: string | undefined) => Array.from(word ?? '')[0] ?? '';
  if (words.length > 0) {
    const first = firstLetter(words[0]);
    const last = words.length > 1 ? firstLetter(words[words.length - 1]) : '';
    return (first + last).toUpperCase();
  }
  const fromEmail = firstLetter((email ?? '').trim());
  return fromEmail ? fromEmail.toUpperCase() : '?';
}
