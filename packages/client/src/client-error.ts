import { type ErrorKind, type ErrorObject, errorKindOf } from '@portal/contract';

/** The spec's internal message for a call made without a session (spec/000 §6, spec/001 §6). */
export const MISSING_AUTH = 'Missing required authentication';
/** The spec's message when no session is stored at all (spec/000 §8 internal messages). */
export const NO_ACCESS_TOKEN = 'No access token found';
/** The spec's message when a refresh answered without a token pair (spec/000 §4). */
export const NO_ACCESS_TOKEN_IN_RESPONSE = 'No access token in response';
/** The spec's message when the server could not be reached (spec/000 §5, §8). */
export const NO_RESPONSE = 'No response received from server';

export interface ClientErrorInit {
  kind: ErrorKind;
  /** HTTP status; 0 when nothing was sent or nothing came back */
  status: number;
  /** the contract's error code, when the server gave one */
  code?: number | undefined;
  /** the server's Description, or the client's own reason */
  description: string;
  /** `service action` of the call, for logs */
  call?: string | undefined;
}

/**
 * Every failure of a call. What happened is `kind` (from the contract's error code, else the
 * HTTP status, else the client's own: `network`, `invalid_response`); `message` is for people.
 * Callers decide by `kind` and `code`, never by the message.
 */
export class ClientError extends Error {
  override name = 'ClientError';
  readonly kind: ErrorKind;
  readonly status: number;
  readonly code: number | undefined;
  /** the server's Description as it came */
  readonly description: string;
  /** the request fields the Description names, e.g. `user.password` */
  readonly fields: string[];
  readonly call: string | undefined;

  constructor(init: ClientErrorInit) {
    const { message, fields } = splitDescription(init.description);
    super(message);
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.description = init.description;
    this.fields = fields;
    this.call = init.call;
  }

  /** The same failure told in other words (the spec names a message per failed call). */
  withMessage(message: string): ClientError {
    return new ClientError({
      kind: this.kind,
      status: this.status,
      code: this.code,
      description: message,
      call: this.call,
    });
  }

  /** A failed answer of the server. */
  static fromAnswer(status: number, error: ErrorObject | undefined, call?: string): ClientError {
    const code = error?.Code || undefined;
    return new ClientError({
      kind: errorKindOf(code, status),
      status,
      code,
      description: error?.Description || `Request failed (HTTP ${status})`,
      call,
    });
  }
}

export function isClientError(err: unknown, kind?: ErrorKind): err is ClientError {
  return err instanceof ClientError && (kind === undefined || err.kind === kind);
}

/**
 * The server names the field of each problem (`user.password: Current password is incorrect`);
 * people read the rule, forms read the field.
 */
export function splitDescription(description: string): { message: string; fields: string[] } {
  const fields: string[] = [];
  const parts = description.split('; ').map((part) => {
    const m = /^([A-Za-z_][\w.[\]-]*): (.+)$/s.exec(part);
    if (!m) return part;
    fields.push(m[1] as string);
    return m[2] as string;
  });
  return { message: [...new Set(parts)].join(' '), fields };
}
