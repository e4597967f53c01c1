import { classifyLoginError, ErrorCodes, loginHttpMessage, type Notice } from '@portal/contract';

/** A sign-in refused by the page itself (not by the server), with what to show. */
export class LoginRejectedError extends Error {
  constructor(readonly notice: Notice) {
    super(notice.text);
    this.name = 'LoginRejectedError';
  }
}

export const UNVERIFIED_LOGIN = new LoginRejectedError(
  classifyLoginError(ErrorCodes.EMAIL_NOT_VERIFIED.code, undefined),
);

export const NO_HUB_CREDENTIALS = 'No encrypted credentials received for hub login';

interface CallFailure {
  message: string;
  status: number;
  code?: number | undefined;
}

function isCallFailure(err: unknown): err is CallFailure {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number';
}

/** spec/000 §8: the toast and inline notice of a failed sign-in. */
export function loginFailureNotice(err: unknown): Notice {
  if (err instanceof LoginRejectedError) return err.notice;
  if (isCallFailure(err)) return classifyLoginError(err.code, loginHttpMessage(err.status, err.message));
  const message = err instanceof Error && err.message ? err.message : 'An unexpected error occurred';
  return { title: 'Login Failed', text: message };
}

/** What the other tabs are told about a failed sign-in (spec/000 §8: Account Locked or Login Failed). */
export function loginErrorBroadcast(notice: Notice): { title: string; message: string } {
  return { title: notice.title === 'Account Locked' ? 'Account Locked' : 'Login Failed', message: notice.text };
}
