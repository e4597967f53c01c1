import { PRODUCT_NAME } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { BookOpenIcon, DownloadIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { env } from '@/config/env';

/** Shown when the user has no robots and nobody shares one (spec/001 §2). */
export function RobotsWelcomeCard() {
  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="welcome-card">
      <CardHeader>
        <CardTitle>Welcome to {PRODUCT_NAME}</CardTitle>
        <CardDescription>You have no robots yet. Two steps get your first robot connected:</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-3">
          <WelcomeStep number={1} title="Download the Hub">
            Get the desktop Hub for your computer from the Downloads page.
          </WelcomeStep>
          <WelcomeStep number={2} title="Follow the installer">
            Install the Hub, sign in, and it guides you through connecting and pairing your robot.
          </WelcomeStep>
        </ol>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button asChild>
          <Link to="/dashboard/downloads">
            <DownloadIcon />
            Downloads
          </Link>
        </Button>
        <Button asChild variant="outline">
          <a href={env.docsUrl} target="_blank" rel="noreferrer">
            <BookOpenIcon />
            Documentation
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </Button>
      </CardFooter>
    </Card>
  );
}

function WelcomeStep({ number, title, children }: { number: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
        aria-hidden
      >
        {number}
      </span>
      <div>
        <p className="font-medium">{title}</p>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
    </li>
  );
}
