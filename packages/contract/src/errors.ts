import { z } from 'zod';
import type { ErrorObject } from './error-codes.ts';

/** The error object as the server writes it. */
export const errorObject = z.object({
  Success: z.boolean(),
  Code: z.number().int(),
  Description: z.string(),
}) satisfies z.ZodType<ErrorObject>;

/**
 * The error object as a client reads it: the spec says responses may spell the fields
 * `code`/`Description` or `Code`/`description`, so both spellings are accepted and normalised.
 */
export const errorObjectInput = z
  .object({
    Success: z.boolean().optional(),
    success: z.boolean().optional(),
    Code: z.number().int().optional(),
    code: z.number().int().optional(),
    Description: z.string().optional(),
    description: z.string().optional(),
  })
  .transform(
    (e): ErrorObject => ({
      Success: e.Success ?? e.success ?? false,
      Code: e.Code ?? e.code ?? 0,
      Description: e.Description ?? e.description ?? '',
    }),
  );
