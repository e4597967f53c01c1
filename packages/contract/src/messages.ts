import * as z from 'zod/mini';

/**
 * The contract is written on `zod/mini` (docs/decisions/036), which loads no messages of its own: a
 * rule without a message of the contract's would read "Invalid input". A process that shows zod's
 * messages to people (the server's 400s, the hub's request checks) calls this once at start, and
 * they read as before ("Too big: expected string to have <=254 characters"). The web app does not:
 * its forms carry their own wording, and the English table would load on every page.
 */
export function loadEnglishMessages(): void {
  z.config(z.locales.en());
}
