import type { Target } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type AnyRoute, useNavigate, useRouter } from '@tanstack/react-router';
import * as React from 'react';
import { ERROR_TOAST_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { broadcast } from '@/lib/session';
import { loadToasts, toast } from '@/lib/toast';
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
  const router = useRouter();
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

  /**
   * Fetches what a sign-in needs before it is submitted: the sign-in call (with the action client),
   * the toasts it ends with and, for the portal, the code of the page it leads to. The page after sign-in then starts its
   * calls at once instead of first waiting for its own code (docs/performance.md, the waterfall).
   */
  const prefetch = React.useCallback(() => {
    void import('../api/login').catch(() => undefined);
    void loadToasts().catch(() => undefined);
    if (target !== 'portal') return;
    try {
      const destination = safePortalRedirect(redirect) ?? '/dashboard';
      for (const match of router.matchRoutes(destination))
        void router
          .loadRouteChunk((router.routesById as unknown as Record<string, AnyRoute>)[match.routeId] as AnyRoute)
          ?.catch(() => undefined);
    } catch {
      // A destination the router cannot match loads its code on navigation, as any page does.
    }
  }, [router, target, redirect]);

  return { signIn, handingToHub, prefetch };
}
