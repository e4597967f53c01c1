import { useAuth } from '@/lib/auth';
import { AccountDangerZoneCard } from './account-danger-zone-card';
import { AccountDetailsCard } from './account-details-card';
import { AccountPlanCard } from './account-plan-card';
import { AccountProfileDetailsCard } from './account-profile-details-card';

export function AccountProfilePage() {
  const { user } = useAuth();
  // The signed-in layout guarantees a user; this only satisfies the type after a logout in another tab.
  if (!user) return null;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Profile</h1>
        <p className="text-sm text-muted-foreground">Your plan, sign-in details and profile.</p>
      </div>
      <AccountPlanCard />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <AccountDetailsCard email={user.email} />
        <AccountProfileDetailsCard key={user.user_id} user={user} />
      </div>
      <AccountDangerZoneCard email={user.email} />
    </div>
  );
}
