import { useAuth } from '@/lib/auth';
import { AccountDangerZoneCard } from './account-danger-zone-card';
import { AccountDataExportCard } from './account-data-export-card';
import { AccountDetailsCard } from './account-details-card';
import { AccountPasskeysCard } from './account-passkeys-card';
import { AccountPlanCard } from './account-plan-card';
import { AccountProfileDetailsCard } from './account-profile-details-card';
import { AccountSessionsCard } from './account-sessions-card';

export function AccountProfilePage() {
  const { user } = useAuth();
  // The signed-in layout guarantees a user; this only satisfies the type after a logout in another tab.
  if (!user) return null;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Profile</h1>
        <p className="text-sm text-muted-foreground">Your plan, sign-in details, profile and security.</p>
      </div>
      <AccountPlanCard />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <AccountDetailsCard email={user.email} />
        <AccountProfileDetailsCard key={user.user_id} user={user} />
      </div>
      {/* The security emails link here (#security). */}
      <section id="security" aria-labelledby="security-heading" className="grid scroll-mt-20 gap-4">
        <div className="grid gap-1">
          <h2 id="security-heading" className="text-xl font-semibold tracking-tight">
            Security
          </h2>
          <p className="text-sm text-muted-foreground">
            Where your account is signed in, and the passkeys that can sign you in.
          </p>
        </div>
        <AccountSessionsCard email={user.email} />
        <AccountPasskeysCard email={user.email} />
      </section>
      <AccountDataExportCard />
      <AccountDangerZoneCard email={user.email} />
    </div>
  );
}
