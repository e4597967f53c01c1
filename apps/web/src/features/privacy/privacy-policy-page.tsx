import { PRODUCT_NAME } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { env } from '@/config/env';
import { useAuth } from '@/lib/auth';
import { formatLongDateGB } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { DATA_RETENTION_YEARS } from './privacy-data-usage';
import { PrivacyDataUsageDialog } from './privacy-data-usage-dialog';

const SECTIONS = [
  { id: 'contact-details', title: 'Who we are and our contact details' },
  { id: 'information-we-collect', title: 'The information we collect' },
  { id: 'how-and-why', title: 'How we get your information and why we have it' },
  { id: 'storage', title: 'How we store your information' },
  { id: 'your-rights', title: 'Your data protection rights' },
  { id: 'complaints', title: 'How to complain' },
  { id: 'changes', title: 'Changes to this policy' },
  { id: 'contact', title: 'Contact us' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

function Section({ id, children }: { id: SectionId; children: React.ReactNode }) {
  const title = SECTIONS.find((s) => s.id === id)?.title;
  return (
    <section aria-labelledby={`${id}-heading`} className="scroll-mt-20 space-y-3">
      <h2 id={`${id}-heading`} className="text-xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Back goes to the dashboard when signed in, otherwise to sign-in (spec/000 §2). */
function BackButton() {
  const { status } = useAuth();
  return (
    <Button variant="ghost" asChild className="-ml-2">
      {status === 'authenticated' ? (
        <Link to="/dashboard">
          <ArrowLeftIcon aria-hidden />
          Back
        </Link>
      ) : (
        <Link to="/auth/login" search={{ target: 'portal' }}>
          <ArrowLeftIcon aria-hidden />
          Back
        </Link>
      )}
    </Button>
  );
}

const mailLink = 'font-medium text-primary underline-offset-4 hover:underline';

/** The policy text itself; the public route and the in-app route both render it. */
export function PrivacyPolicyPage({ className }: { className?: string }) {
  const years = `${DATA_RETENTION_YEARS} years`;
  return (
    <article className={cn('mx-auto w-full max-w-3xl space-y-8 text-sm leading-relaxed sm:text-base', className)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <BackButton />
        <PrivacyDataUsageDialog />
      </div>

      <header className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Privacy Policy</h1>
        <p className="text-muted-foreground">
          This policy explains what personal data we collect when you use {PRODUCT_NAME}, the desktop Hub and the
          services around them, why we collect it, how long we keep it and what your rights are. We are the data
          controller for this data under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act
          2018.
        </p>
        <p className="font-medium">
          Effective from{' '}
          <time dateTime={env.privacyPolicyEffectiveDate}>
            {/* An ISO date is midnight UTC; read in UTC it is the same day everywhere. */}
            {formatLongDateGB(Date.parse(env.privacyPolicyEffectiveDate), 'UTC')}
          </time>
          .
        </p>
      </header>

      <nav aria-label="Privacy Policy sections" className="rounded-lg border bg-card p-4">
        <h2 className="mb-2 text-sm font-semibold">On this page</h2>
        <ol className="grid list-decimal gap-x-10 gap-y-1 pl-5 text-sm sm:grid-cols-2">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}-heading`} className="rounded-sm text-primary underline-offset-4 hover:underline">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <Section id="contact-details">
        <p>
          {PRODUCT_NAME} is run by the robotics software company that provides the robot drivers, the Hub and the
          licenses you manage here (“we”, “us”). If you have any question about how we handle your personal data, write
          to our data protection contact at{' '}
          <a className={mailLink} href={`mailto:${env.privacyEmail}`}>
            {env.privacyEmail}
          </a>
          . Please put “Data protection” in the subject line so your message reaches the right people quickly.
        </p>
      </Section>

      <Section id="information-we-collect">
        <p>We collect and use the following information:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Account details:</strong> your name, email address, organisation, country, profession and year of
            birth where you give them, your marketing preference and your agreement to our terms. Your password is
            stored only as a one-way hash; nobody at our company can read it.
          </li>
          <li>
            <strong>Robots and licenses:</strong> the robots you register and pair (make, model, name, a hardware
            identifier and whether they are online), your licenses and pairing codes, and the email addresses of people
            you share a license with.
          </li>
          <li>
            <strong>Usage:</strong> dial time you use, Hub downloads, sign-in times and failed sign-in attempts, and
            technical data such as your IP address, browser type and error reports.
          </li>
          <li>
            <strong>Payments and subscriptions:</strong> your plan, subscription status, orders and invoices. Card
            details go straight to our payment provider; we never see or store your full card number.
          </li>
          <li>
            <strong>Support:</strong> the messages you send us and our replies.
          </li>
          <li>
            <strong>Preferences on your device:</strong> your theme, sidebar layout, onboarding progress, cart and
            whether you have seen our cookie notice are kept in your browser and are not sent to us.
          </li>
        </ul>
      </Section>

      <Section id="how-and-why">
        <p>
          Most of this information you give us directly: when you create an account, edit your profile, buy a license or
          a subscription, or contact us. The rest is created as you use the service: the Hub reports robot registration,
          pairing and dial time, our servers record sign-ins and downloads, and our payment provider tells us whether a
          payment succeeded.
        </p>
        <p>We use it to:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>provide your account, your licenses, dial time and downloads (performance of our contract with you);</li>
          <li>take payments and keep the accounting records the law requires (contract and legal obligation);</li>
          <li>keep your account and our systems secure and fix faults (our legitimate interests);</li>
          <li>answer your questions and tell you about changes to the service (our legitimate interests);</li>
          <li>send you product news, only if you opted in (your consent, which you can withdraw at any time).</li>
        </ul>
        <p>
          The <strong>Data Usage Table</strong> at the top of this page lists each purpose with the data it uses and its
          legal basis. We do not sell your personal data. We share it only with service providers who process it for us
          under contract (hosting, email delivery, payment processing and error monitoring), and with authorities when
          the law requires it.
        </p>
      </Section>

      <Section id="storage">
        <p>
          Your information is stored securely on servers in the United Kingdom or the European Economic Area. If a
          provider processes it elsewhere, we make sure it is protected by UK adequacy regulations or the UK
          International Data Transfer Agreement. Connections to {PRODUCT_NAME} are encrypted, passwords are hashed, and
          only staff who need access to do their job have it.
        </p>
        <p>
          We keep your personal data for {years} and then anonymise it, so that it can no longer be linked to you.
          Anonymised figures, such as how many robots of a model are in use, may be kept for statistics.
        </p>
      </Section>

      <Section id="your-rights">
        <p>Under data protection law you have the right to:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>access</strong> the personal data we hold about you and receive a copy;
          </li>
          <li>
            <strong>rectification</strong>: ask us to correct data you think is wrong or complete data that is missing;
          </li>
          <li>
            <strong>erasure</strong>: ask us to delete your personal data in certain circumstances;
          </li>
          <li>
            <strong>restriction</strong>: ask us to limit how we use your data in certain circumstances;
          </li>
          <li>
            <strong>object</strong> to processing based on our legitimate interests, and to direct marketing at any
            time;
          </li>
          <li>
            <strong>data portability</strong>: ask us to send the data you gave us to you or to another organisation in
            a common machine-readable format;
          </li>
          <li>
            <strong>withdraw consent</strong> where we rely on it, for example for product news.
          </li>
        </ul>
        <p>
          You can correct your profile and delete your account yourself from the Profile page. For anything else, email{' '}
          <a className={mailLink} href={`mailto:${env.privacyEmail}`}>
            {env.privacyEmail}
          </a>
          . You do not normally have to pay, and we will reply within one month.
        </p>
      </Section>

      <Section id="complaints">
        <p>
          If you are unhappy with how we have used your data, please tell us first and we will try to put it right. You
          can also complain to the Information Commissioner’s Office (ICO):
        </p>
        <address className="rounded-lg border bg-card p-4 not-italic">
          Information Commissioner’s Office
          <br />
          Wycliffe House, Water Lane, Wilmslow, Cheshire, SK9 5AF
          <br />
          Helpline: 0303 123 1113
          <br />
          Website:{' '}
          <a className={mailLink} href="https://ico.org.uk/make-a-complaint/" target="_blank" rel="noreferrer">
            ico.org.uk/make-a-complaint
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </address>
      </Section>

      <Section id="changes">
        <p>
          We review this policy regularly and update it when our services or the law change. If a change affects how we
          use your data in a significant way, we will tell you by email or with a notice in the portal before it takes
          effect. This page always shows the current version and the date from which it applies.
        </p>
      </Section>

      <Section id="contact">
        <p>
          For questions about this policy or your personal data, email{' '}
          <a className={mailLink} href={`mailto:${env.privacyEmail}`}>
            {env.privacyEmail}
          </a>
          . For help with your account, robots or subscription,{' '}
          {env.supportUrl.startsWith('mailto:') ? (
            // A deployment may give a support mailbox instead of a help centre (SUPPORT_URL).
            <a className={mailLink} href={env.supportUrl}>
              email our support team
            </a>
          ) : (
            <>
              visit our{' '}
              <a className={mailLink} href={env.supportUrl} target="_blank" rel="noreferrer">
                support centre
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </>
          )}
          .
        </p>
      </Section>
    </article>
  );
}

/** The signed-out frame around the policy: the shell's sidebar is not there to provide landmarks. */
export function PublicPrivacyPolicyPage({ notice }: { notice?: React.ReactNode }) {
  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-3xl items-center gap-2 px-4">
          <img src="/favicon.svg" alt="" className="size-7" />
          <span className="font-semibold">{PRODUCT_NAME}</span>
        </div>
      </header>
      <main id="main-content" className="px-4 py-8">
        {notice ? <div className="mx-auto mb-6 max-w-3xl">{notice}</div> : null}
        <PrivacyPolicyPage />
      </main>
    </div>
  );
}
