import { PRODUCT_NAME } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import {
  BookOpenIcon,
  BotIcon,
  CodeIcon,
  CreditCardIcon,
  DownloadIcon,
  type LucideIcon,
  SparklesIcon,
} from 'lucide-react';
import type * as React from 'react';
import { AddRobotsLink } from '@/components/links/add-robots-link';
import { env } from '@/config/env';
import { closeTour } from './onboarding-store';

export interface OnboardingStep {
  icon: LucideIcon;
  title: string;
  body: React.ReactNode;
  link?: { label: string; href: string };
}

const inlineLink = 'font-medium text-primary underline underline-offset-4';

/**
 * Following a link to a portal page ends the tour, as closing it does: the page would otherwise
 * open behind the dialog. The tour can be replayed from the sidebar.
 */
const leaveTour = () => closeTour();

/**
 * The six steps of spec/000 §2, in order. `name` is what greetingName() returned. The texts name
 * only pages that exist: Flexible Licenses comes with later work.
 */
export function onboardingSteps(name: string): OnboardingStep[] {
  return [
    {
      icon: SparklesIcon,
      title: `Hi ${name}, welcome to ${PRODUCT_NAME}!`,
      body: (
        <p>
          This short tour shows you around: where to get the Hub, how to add robots, where to manage your subscription
          and where to find help. It takes about a minute.
        </p>
      ),
    },
    {
      icon: DownloadIcon,
      title: 'Download the Hub',
      body: (
        <p>
          The Hub is the desktop application that connects your computer to your robots. Open <strong>Downloads</strong>{' '}
          in the sidebar, pick your operating system, accept the license agreement and run the installer.
        </p>
      ),
    },
    {
      icon: BotIcon,
      title: 'Manage your robots',
      body: (
        <p>
          Your dashboard lists your robots: paired robots with their status, unpaired licenses with their pairing code,
          and robots other people share with you. Use{' '}
          <AddRobotsLink className={inlineLink} onClick={leaveTour}>
            Add Robots
          </AddRobotsLink>{' '}
          to buy a license for another model, then enter its pairing code in the Hub to pair it.
        </p>
      ),
    },
    {
      icon: CreditCardIcon,
      title: 'Manage your subscription',
      body: (
        <p>
          Your plan sets your yearly dial time and whether you have flexible license slots. The{' '}
          <Link to="/dashboard/subscriptions/manage" className={inlineLink} onClick={leaveTour}>
            Subscription Dashboard
          </Link>{' '}
          shows your plan and your robot driver subscriptions: upgrade there, or choose{' '}
          <strong>Update Payment Info</strong> to change your card, change or cancel your plan. Buy extra dial time from
          the dial time panel on your dashboard.
        </p>
      ),
    },
    {
      icon: BookOpenIcon,
      title: 'Read the documentation',
      body: (
        <p>
          The documentation covers installing the Hub, pairing robots, dial time and troubleshooting. It is always one
          click away under <strong>Docs</strong> in the sidebar.
        </p>
      ),
      link: { label: 'Open the documentation', href: env.docsUrl },
    },
    {
      icon: CodeIcon,
      title: 'SDK tutorials and API reference',
      body: (
        <p>
          Building your own robot applications? The tutorials take you through the SDK step by step, and the API
          reference describes every call. Find them under <strong>Tutorials</strong>. You can replay this tour at any
          time from <strong>Onboarding Tour</strong> in the sidebar.
        </p>
      ),
      link: { label: 'Open the tutorials', href: env.tutorialsUrl },
    },
  ];
}
