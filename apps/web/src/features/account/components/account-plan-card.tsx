import { CrownIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentPlan } from '../api/current-plan';

export function AccountPlanCard() {
  const plan = useCurrentPlan();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Current Plan</CardTitle>
        <CardDescription>The subscription tier of your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">
          <CrownIcon className="size-5" aria-hidden />
        </span>
        {plan.data ? (
          <p className="flex flex-wrap items-center gap-2 text-sm">
            You are on the
            <Badge variant="secondary" className="text-sm">
              {plan.data.name}
            </Badge>
            plan.
          </p>
        ) : plan.isError ? (
          <p className="text-sm text-muted-foreground">Your plan could not be loaded. Please try again later.</p>
        ) : (
          <Skeleton className="h-6 w-40" />
        )}
      </CardContent>
    </Card>
  );
}
