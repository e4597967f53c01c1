import { PRODUCT_NAME } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { BotIcon, CreditCardIcon, DownloadIcon, type LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';

const FEATURES: readonly { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: BotIcon,
    title: 'All your robots in one place',
    text: 'See every paired, unpaired and shared robot with its status and pairing code, and add licenses for new models.',
  },
  {
    icon: DownloadIcon,
    title: 'The Hub, ready to install',
    text: 'Download the desktop Hub for your operating system and connect your robots in minutes.',
  },
  {
    icon: CreditCardIcon,
    title: 'Licenses and subscriptions',
    text: 'Choose a plan, buy dial time and assign flexible licenses to the robot models you use.',
  },
];

function SignInButton(props: { size?: 'default' | 'lg' }) {
  return (
    <Button asChild size={props.size}>
      <Link to="/auth/login" search={{ target: 'portal' }}>
        Sign in
      </Link>
    </Button>
  );
}

/** The public landing page; `footer` takes what the route adds below the content (the cookie notice). */
export function LandingPage({ footer }: { footer?: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4">
          <span className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" className="size-8" />
            {PRODUCT_NAME}
          </span>
          <SignInButton />
        </div>
      </header>
      <main id="main-content" className="flex-1">
        <section className="mx-auto flex max-w-5xl flex-col items-start gap-6 px-4 py-16 sm:py-24">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{PRODUCT_NAME}</h1>
          <p className="max-w-2xl text-lg text-muted-foreground">
            The customer portal for your robot software: manage robots and licenses, download the Hub, keep track of
            dial time and run your subscription, all from one dashboard.
          </p>
          <SignInButton size="lg" />
        </section>
        <section aria-label="What you can do" className="mx-auto grid max-w-5xl gap-4 px-4 pb-16 sm:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-xl border bg-card p-5 shadow-sm">
              <Icon aria-hidden className="mb-3 size-6 text-primary" />
              <h2 className="mb-1 font-semibold">{title}</h2>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
          ))}
        </section>
      </main>
      <footer className="border-t">
        <div className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
          {footer}
          <nav aria-label="Legal" className="text-sm text-muted-foreground">
            <Link to="/privacy-policy" className="rounded-sm underline-offset-4 hover:text-foreground hover:underline">
              Privacy Policy
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
