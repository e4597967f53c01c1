import type { Target } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import * as React from 'react';
import { ERROR_TOAST_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { broadcast } from '@/lib/session';
import { toast } from '@/lib/toast';
import { postCredentialsToHub } from '../api/hub-handoff';
import { safePortalRedirect } from '../utils/auth-search';
import {
  loginErrorBroadcast,
  loginFailureNotice,
  NO_HUB_CREDENTIALS,
  type Notice,
  UNVERIFIED_LOGIN,
} from '../utils/login-failure';

export interface SignInInput {
  email: string;
  password: string;
  rememberMe: boolean;
}

export interface SignInOptions {
  target: Target;
  redirect?: string | undefined;
  /** the hub's public JWK (JSON), hub target only */
  hubPublicKey?: string | undefined;
  onSuccess?: () => void;
}

/**
 * The sign-in steps of spec/000 §4 Login. Resolves to the failure notice (also toasted) or to
 * undefined on success; on the hub target success means the page is leaving for the hub.
 */
export function useSignIn({ target, redirect, hubPublicKey, onSuccess }: SignInOptions) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const navigate = useNavigate();
  const [handingToHub, setHandingToHub] = React.useState(false);

  const signIn = React.useCallback(
    async (input: SignInInput): Promise<Notice | undefined> => {
      queryClient.clear();
      try {
        // Loaded here, not at the top: the sign-in page loads no action client until it is used.
        const { requestHubLogin, requestPortalLogin } = await import('../api/login');
        if (target === 'hub') {
          if (!hubPublicKey || !redirect) throw new Error(NO_HUB_CREDENTIALS);
          const res = await requestHubLogin({ email: input.email, password: input.password, hubPublicKey });
          setHandingToHub(true);
          onSuccess?.();
          postCredentialsToHub(redirect, res.enc_creds);
          return undefined;
        }
        const res = await requestPortalLogin(input);
        if (!res.user.email_validated) throw UNVERIFIED_LOGIN;
        await auth.signIn(res.token_pair, res.user, input.rememberMe);
        toast.success('Login Successful', { description: 'Welcome back!' });
        onSuccess?.();
        await navigate({ href: safePortalRedirect(redirect) ?? '/dashboard', replace: true });
        return undefined;
      } catch (err) {
        auth.clear();
        const notice = loginFailureNotice(err);
        toast.error(notice.title, { description: notice.text, duration: ERROR_TOAST_MS });
        broadcast({ type: 'login-error', ...loginErrorBroadcast(notice) });
        return notice;
      }
    },
    [queryClient, auth, navigate, target, redirect, hubPublicKey, onSuccess],
  );

  return { signIn, handingToHub };
}
