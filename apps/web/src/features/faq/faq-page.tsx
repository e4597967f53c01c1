import { Link } from '@tanstack/react-router';
import { BookOpenIcon, LifeBuoyIcon } from 'lucide-react';
import { AddRobotsLink } from '@/components/links/add-robots-link';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { env } from '@/config/env';
import { FAQ_ITEMS, type FaqSegment, type FaqTarget, paragraphText } from './faq-items';

const inlineLink = 'font-medium text-primary underline underline-offset-4';

const PAGE_PATHS = {
  support: '/dashboard/support',
  profile: '/dashboard/user/profile',
  subscriptions: '/dashboard/subscriptions/manage',
} as const;

function PageLink({ page, children }: { page: FaqTarget; children: string }) {
  if (page === 'add-robots') return <AddRobotsLink className={inlineLink}>{children}</AddRobotsLink>;
  return (
    <Link to={PAGE_PATHS[page]} className={inlineLink}>
      {children}
    </Link>
  );
}

function Paragraph({ paragraph }: { paragraph: string | readonly FaqSegment[] }) {
  if (typeof paragraph === 'string') return <p>{paragraph}</p>;
  return (
    <p>
      {paragraph.map((segment) =>
        typeof segment === 'string' ? (
          segment
        ) : (
          <PageLink key={segment.text} page={segment.page}>
            {segment.text}
          </PageLink>
        ),
      )}
    </p>
  );
}

export function FaqPage() {
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Frequently asked questions</h1>
        <p className="text-muted-foreground">
          Quick answers about robots, pairing, dial time, licenses, downloads and subscriptions.
        </p>
      </header>
      <Accordion type="multiple" className="rounded-lg border bg-card px-4">
        {FAQ_ITEMS.map((item) => (
          <AccordionItem key={item.id} value={item.id}>
            <AccordionTrigger headingLevel={2} className="text-base">
              {item.question}
            </AccordionTrigger>
            <AccordionContent className="space-y-2 text-muted-foreground">
              {item.answer.map((paragraph) => (
                <Paragraph key={paragraphText(paragraph)} paragraph={paragraph} />
              ))}
            </AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
      <section
        aria-labelledby="faq-more-help"
        className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:flex-row sm:items-center"
      >
        <h2 id="faq-more-help" className="flex-1 font-medium">
          Still need help?
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={env.docsUrl} target="_blank" rel="noreferrer">
              <BookOpenIcon aria-hidden />
              Documentation
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
          <Button asChild>
            <Link to="/dashboard/support">
              <LifeBuoyIcon aria-hidden />
              Get Help
            </Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
