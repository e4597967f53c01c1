import { createFileRoute } from '@tanstack/react-router';
import { AdminSignInPage, type PasskeyOutcome } from '@/features/admin/components/admin-sign-in-page';
import { loginFailureNotice } from '@/features/auth/utils/login-failure';
import { pageHead } from '@/lib/page-title';
import { defined, searchParser, text } from '@/lib/search-params';

/** Where to go after signing in: a console address only, so the parameter cannot send anyone elsewhere. */
function consoleAddress(value: unknown): string | undefined {
  const href = text(value, { min: 1, max: 2048 });
  return href && /^\/admin(?:[/?#]|$)/.test(href) && !href.startsWith('/admin/sign-in') ? href : undefined;
}

export const Route = createFileRoute('/admin/sign-in')({
  head: () => pageHead('Staff sign-in'),
  validateSearch: searchParser((raw) => defined({ redirect: consoleAddress(raw.redirect) })),
  component: SignInRoute,
});

/** The portal's own passkey sign-in (features/auth), loaded when the button is pressed. */
async function signInWithPasskey(): Promise<PasskeyOutcome> {
  try {
    const { requestPasskeySignIn } = await import('@/features/auth/api/passkey-login');
    const answer = await requestPasskeySignIn({ target: 'portal', rememberMe: false });
    return { ok: true, user: answer.user, token_pair: answer.token_pair };
  } catch (err) {
    return { ok: false, ...loginFailureNotice(err) };
  }
}

function SignInRoute() {
  const { redirect } = Route.useSearch();
  return <AdminSignInPage signInWithPasskey={signInWithPasskey} redirect={redirect} />;
}
