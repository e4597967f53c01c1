import { PRODUCT_NAME, type Target } from '@portal/contract';
import { Link, Outlet } from '@tanstack/react-router';
import { LogInIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';

/** The public frame of every /auth page: a top bar with the logo and a Login button. */
export function AuthLayout({ target, notice }: { target: Target; notice?: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="sticky top-0 z-10 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="mx-auto flex h-14 w-full max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
            <span>{PRODUCT_NAME}</span>
          </Link>
          <Button asChild variant="outline" size="sm">
            <Link to="/auth/login" search={{ target }}>
              <LogInIcon aria-hidden />
              Login
            </Link>
          </Button>
        </div>
      </header>
      <main className="flex flex-1 flex-col items-center px-4 py-8 sm:px-6 sm:py-12">
        {notice ? <div className="mb-6 w-full max-w-xl">{notice}</div> : null}
        <Outlet />
      </main>
    </div>
  );
}
