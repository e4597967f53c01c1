import * as z from 'zod/mini';
import type { ErrorObject } from './error-codes.ts';

/** The error object as the server writes it. */
export const errorObject = z.object({
  Success: z.boolean(),
  Code: z.int(),
  Description: z.string(),
}) satisfies z.ZodMiniType<ErrorObject>;

/**
 * The error object as a client reads it: the spec says responses may spell the fields
 * `code`/`Description` or `Code`/`description`, so both spellings are accepted and normalised.
 */
export const errorObjectInput = z.pipe(
  z.object({
    Success: z.optional(z.boolean()),
    success: z.optional(z.boolean()),
    Code: z.optional(z.int()),
    code: z.optional(z.int()),
    Description: z.optional(z.string()),
    description: z.optional(z.string()),
  }),
  z.transform(
    (e): ErrorObject => ({
      Success: e.Success ?? e.success ?? false,
      Code: e.Code ?? e.code ?? 0,
      Description: e.Description ?? e.description ?? '',
    }),
  ),
);
