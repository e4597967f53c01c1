import type { Target } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type AnyRoute, useNavigate, useRouter } from '@tanstack/react-router';
import * as React from 'react';
import { ERROR_TOAST_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { broadcast } from '@/lib/session';
import { loadToasts, toast } from '@/lib/toast';
import { postCredentialsToHub } from '../api/hub-handoff';
import type { PortalLogin } from '../api/login';
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

  /** Hands a hub sign-in's credentials over, or stores a portal session and goes on (spec/000 §4 Login). */
  const finish = React.useCallback(
    async (answer: { target: 'hub'; enc_creds: string } | PortalLogin, rememberMe: boolean) => {
      if (answer.target === 'hub') {
        if (!redirect) throw new Error(NO_HUB_CREDENTIALS);
        setHandingToHub(true);
        onSuccess?.();
        postCredentialsToHub(redirect, answer.enc_creds);
        return;
      }
      if (!answer.user.email_validated) throw UNVERIFIED_LOGIN;
      await auth.signIn(answer.token_pair, answer.user, rememberMe);
      toast.success('Login Successful', { description: 'Welcome back!' });
      onSuccess?.();
      await navigate({ href: safePortalRedirect(redirect) ?? '/dashboard', replace: true });
    },
    [auth, navigate, redirect, onSuccess],
  );

  const fail = React.useCallback(
    (notice: Notice): Notice => {
      auth.clear();
      toast.error(notice.title, { description: notice.text, duration: ERROR_TOAST_MS });
      broadcast({ type: 'login-error', ...loginErrorBroadcast(notice) });
      return notice;
    },
    [auth],
  );

  const signIn = React.useCallback(
    async (input: SignInInput): Promise<Notice | undefined> => {
      queryClient.clear();
      try {
        // Loaded here, not at the top: the sign-in page loads no action client until it is used.
        const { requestHubLogin, requestPortalLogin } = await import('../api/login');
        if (target === 'hub') {
          if (!hubPublicKey || !redirect) throw new Error(NO_HUB_CREDENTIALS);
          await finish(await requestHubLogin({ email: input.email, password: input.password, hubPublicKey }), false);
          return undefined;
        }
        await finish(await requestPortalLogin(input), input.rememberMe);
        return undefined;
      } catch (err) {
        return fail(loginFailureNotice(err));
      }
    },
    [queryClient, target, redirect, hubPublicKey, finish, fail],
  );

  /**
   * "Sign in with a passkey": the same ending as a password sign-in (the hub's encrypted hand-off, or
   * the portal session), under the server's same account rules (docs/decisions/032).
   */
  const signInWithPasskey = React.useCallback(
    async (rememberMe: boolean): Promise<Notice | undefined> => {
      queryClient.clear();
      if (target === 'hub' && (!hubPublicKey || !redirect))
        return fail(loginFailureNotice(new Error(NO_HUB_CREDENTIALS)));
      try {
        const { requestPasskeySignIn } = await import('../api/passkey-login');
        await finish(await requestPasskeySignIn({ target, hubPublicKey, rememberMe }), rememberMe);
        return undefined;
      } catch (err) {
        // requestPasskeySignIn throws the passkey's own notice (a LoginRejectedError).
        return fail(loginFailureNotice(err));
      }
    },
    [queryClient, target, redirect, hubPublicKey, finish, fail],
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

  return { signIn, signInWithPasskey, handingToHub, prefetch };
}
