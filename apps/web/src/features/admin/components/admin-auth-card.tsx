import { ShieldCheckIcon } from 'lucide-react';
import type * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';

/** The frame of the console's signed-out pages (sign-in, enrolment): one card in the middle. */
export function AdminAuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-svh items-start justify-center bg-muted/40 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md">
        <CardHeader>
          <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
            <ShieldCheckIcon className="size-4" aria-hidden />
            Back office
          </p>
          <h1 className="text-xl leading-none font-semibold">{title}</h1>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </main>
  );
}
