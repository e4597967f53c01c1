import { isClientError } from '@portal/client';

/**
 * The message of a server refusal that names `field` (e.g. `user.password: This password is too
 * common…`), so a form can show it under that field; undefined for any other failure.
 */
export function serverFieldError(err: unknown, field: string): string | undefined {
  return isClientError(err) && err.kind === 'validation' && err.fields.includes(field) ? err.message : undefined;
}
