import { createRequire } from 'node:module';

/**
 * Common and breached passwords, refused at registration, reset and change (docs/decisions/026).
 * The list is zxcvbn-ts's `passwords-common` dictionary (about 49,000 passwords seen most often in
 * breaches), shipped inside the @zxcvbn-ts/language-common package: offline, loaded once on first use.
 * It is lower-case and mostly without the character classes the spec requires, so a password is
 * compared in the forms people dress a common one in: any case, letters for look-alike digits and
 * symbols (`P@ssw0rd`), and with a short run of digits and symbols added at either end (`Password1!`).
 */

let list: ReadonlySet<string> | undefined;

function commonList(): ReadonlySet<string> {
  if (!list) {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
      dictionary: Record<string, string[]>;
    };
    list = new Set((dictionary['passwords-common'] ?? []).map((p) => p.toLowerCase()));
  }
  return list;
}

/** Loads the list ahead of the first registration (the server calls it at start). */
export function loadCommonPasswords(): number {
  return commonList().size;
}

const LOOK_ALIKES: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
  '+': 't',
};

/** At most this many digits and symbols are taken for decoration at each end. */
const DECORATION = 6;

/** The forms of a password to look up: as typed (lower case), without decoration, and de-substituted. */
export function candidateForms(password: string): string[] {
  const lower = password.toLowerCase();
  const forms = new Set([lower]);
  const core = lower
    .replace(new RegExp(`^[^\\p{L}]{1,${DECORATION}}`, 'u'), '')
    .replace(new RegExp(`[^\\p{L}]{1,${DECORATION}}$`, 'u'), '');
  const trailingOnly = lower.replace(new RegExp(`[^\\p{L}]{1,${DECORATION}}$`, 'u'), '');
  for (const form of [core, trailingOnly]) if (form.length >= 4) forms.add(form);
  for (const form of [...forms]) {
    const plain = [...form].map((ch) => LOOK_ALIKES[ch] ?? ch).join('');
    forms.add(plain);
  }
  return [...forms].filter((f) => f.length > 0);
}

/** Whether a password is one of the common ones (in any of the forms above). */
export function isCommonPassword(password: string): boolean {
  const common = commonList();
  return candidateForms(password).some((form) => common.has(form));
}
