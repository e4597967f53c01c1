import { z } from 'zod';

/**
 * One table of error codes for every service. 23, 26, 32 and 45 are the spec's; the rest are the
 * project's own. `status` is the HTTP status the server answers with.
 */
export const ErrorCodes = {
  OK: { code: 0, status: 200 },
  NO_LICENCES: { code: 23, status: 200 },
  EMAIL_EXISTS: { code: 26, status: 409 },
  EMAIL_NOT_VERIFIED: { code: 32, status: 403 },
  ACCOUNT_LOCKED: { code: 45, status: 423 },
  VALIDATION: { code: 100, status: 400 },
  UNAUTHENTICATED: { code: 101, status: 401 },
  FORBIDDEN: { code: 102, status: 403 },
  NOT_FOUND: { code: 103, status: 404 },
  CONFLICT: { code: 104, status: 409 },
  RATE_LIMITED: { code: 105, status: 429 },
  CSRF: { code: 106, status: 403 },
  INVALID_TOKEN: { code: 107, status: 400 },
  PAYMENT: { code: 108, status: 402 },
  UNKNOWN_ACTION: { code: 109, status: 400 },
  INTERNAL: { code: 500, status: 500 },
} as const;

export type ErrorName = keyof typeof ErrorCodes;
export type ErrorCode = (typeof ErrorCodes)[ErrorName]['code'];

export function errorNameOf(code: number): ErrorName | undefined {
  return (Object.keys(ErrorCodes) as ErrorName[]).find((name) => ErrorCodes[name].code === code);
}

/** The error object as the server writes it. */
export const errorObject = z.object({
  Success: z.boolean(),
  Code: z.number().int(),
  Description: z.string(),
});
export type ErrorObject = z.infer<typeof errorObject>;

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

export const OK: ErrorObject = { Success: true, Code: 0, Description: 'OK' };

export function errorBody(name: ErrorName, description: string): { error: ErrorObject } {
  return { error: { Success: false, Code: ErrorCodes[name].code, Description: description } };
}

/** An error a handler throws on purpose; the server turns it into the error object. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(
    readonly errorName: ErrorName,
    description: string,
    options?: { status?: number; cause?: unknown },
  ) {
    super(description, { cause: options?.cause });
    this.name = 'ApiError';
    this.code = ErrorCodes[errorName].code;
    this.status = options?.status ?? ErrorCodes[errorName].status;
  }
}
