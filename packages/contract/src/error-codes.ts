// The error table and what a caller makes of it, without zod: the web app's entry reads these.
/**
 * One table of error codes for every service. 23, 26, 32 and 45 are the spec's; the rest are the
 * project's own. `status` is the HTTP status the server answers with.
 */
export const ErrorCodes = {
  OK: { code: 0, status: 200, kind: 'ok' },
  NO_LICENSES: { code: 23, status: 200, kind: 'empty' },
  EMAIL_EXISTS: { code: 26, status: 409, kind: 'conflict' },
  EMAIL_NOT_VERIFIED: { code: 32, status: 403, kind: 'unverified' },
  ACCOUNT_LOCKED: { code: 45, status: 423, kind: 'locked' },
  VALIDATION: { code: 100, status: 400, kind: 'validation' },
  UNAUTHENTICATED: { code: 101, status: 401, kind: 'unauthenticated' },
  FORBIDDEN: { code: 102, status: 403, kind: 'forbidden' },
  NOT_FOUND: { code: 103, status: 404, kind: 'not_found' },
  CONFLICT: { code: 104, status: 409, kind: 'conflict' },
  RATE_LIMITED: { code: 105, status: 429, kind: 'rate_limited' },
  CSRF: { code: 106, status: 403, kind: 'csrf' },
  INVALID_TOKEN: { code: 107, status: 400, kind: 'validation' },
  PAYMENT: { code: 108, status: 402, kind: 'payment' },
  UNKNOWN_ACTION: { code: 109, status: 400, kind: 'validation' },
  /**
   * The server is at its bound of work of one kind (password hashing, docs/decisions/024) and
   * refuses more for now: transient, answered with a Retry-After header; the client may try again.
   */
  BUSY: { code: 110, status: 503, kind: 'server' },
  /**
   * A service the portal relies on (object storage; the payment provider) could not be reached, did
   * not answer in time or failed: transient, answered with a Retry-After header (docs/decisions/059).
   */
  UNAVAILABLE: { code: 111, status: 503, kind: 'server' },
  INTERNAL: { code: 500, status: 500, kind: 'server' },
} as const;

/**
 * What a failure means to a caller, told from the error code (never from the Description):
 * `network` (no answer) and `invalid_response` (an answer that is not the contract's) are the
 * client's own.
 */
export type ErrorKind = (typeof ErrorCodes)[keyof typeof ErrorCodes]['kind'] | 'network' | 'invalid_response';

/** The kind of a failed answer: by its code, else by its HTTP status. */
export function errorKindOf(code: number | undefined, status: number): ErrorKind {
  if (code !== undefined) {
    const name = errorNameOf(code);
    if (name) return ErrorCodes[name].kind;
  }
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 423) return 'locked';
  if (status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'validation';
  return 'server';
}

export type ErrorName = keyof typeof ErrorCodes;
export type ErrorCode = (typeof ErrorCodes)[ErrorName]['code'];

export function errorNameOf(code: number): ErrorName | undefined {
  return (Object.keys(ErrorCodes) as ErrorName[]).find((name) => ErrorCodes[name].code === code);
}

/** The error object as the server writes it (`errorObject` in errors.ts is its schema). */
export interface ErrorObject {
  Success: boolean;
  Code: number;
  Description: string;
}

export const OK: ErrorObject = { Success: true, Code: 0, Description: 'OK' };

export function errorBody(name: ErrorName, description: string): { error: ErrorObject } {
  return { error: { Success: false, Code: ErrorCodes[name].code, Description: description } };
}

/** An error a handler throws on purpose; the server turns it into the error object. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  /** seconds the caller should wait before trying again (the Retry-After header), when known */
  readonly retryAfterS: number | undefined;
  constructor(
    readonly errorName: ErrorName,
    description: string,
    options?: { status?: number; cause?: unknown; retryAfterS?: number },
  ) {
    super(description, { cause: options?.cause });
    this.name = 'ApiError';
    this.code = ErrorCodes[errorName].code;
    this.status = options?.status ?? ErrorCodes[errorName].status;
    this.retryAfterS = options?.retryAfterS;
  }
}
