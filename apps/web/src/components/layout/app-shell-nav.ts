import {
  BotIcon,
  CircleQuestionMarkIcon,
  CreditCardIcon,
  DownloadIcon,
  LayoutDashboardIcon,
  type LucideIcon,
} from 'lucide-react';

export type NavPath =
  | '/dashboard'
  | '/dashboard/downloads'
  | '/dashboard/robot/add'
  | '/dashboard/subscriptions/manage'
  | '/dashboard/subscriptions/flexible_licenses'
  | '/dashboard/faq';

/**
 * How a group with children starts: 'always' stays open and cannot be folded, 'default' starts
 * open, 'closed' starts folded. Any group opens when the current page is one of its children.
 */
export type NavCollapse = 'always' | 'default' | 'closed';

export interface NavLink {
  title: string;
  to: NavPath;
  icon: LucideIcon;
  /** only this exact path counts as active (the dashboard is a prefix of everything) */
  exact?: boolean;
}

export interface NavGroup {
  title: string;
  icon: LucideIcon;
  collapse: NavCollapse;
  items: readonly Omit<NavLink, 'icon'>[];
}

export type NavEntry = NavLink | NavGroup;

export function isNavGroup(entry: NavEntry): entry is NavGroup {
  return 'items' in entry;
}

/** spec/000 §2 Sidebar, "Full menu". */
export const PLATFORM_NAV: readonly NavEntry[] = [
  { title: 'Dashboard', to: '/dashboard', icon: LayoutDashboardIcon, exact: true },
  { title: 'Downloads', to: '/dashboard/downloads', icon: DownloadIcon },
  { title: 'Add Robots', to: '/dashboard/robot/add', icon: BotIcon },
  {
    title: 'Subscriptions',
    icon: CreditCardIcon,
    collapse: 'default',
    items: [
      { title: 'Subscription Dashboard', to: '/dashboard/subscriptions/manage' },
      { title: 'Flexible Licenses', to: '/dashboard/subscriptions/flexible_licenses' },
    ],
  },
  { title: 'FAQ', to: '/dashboard/faq', icon: CircleQuestionMarkIcon },
];

/** Whether `pathname` is `path` or below it. */
export function isPathActive(pathname: string, path: string, exact = false): boolean {
  const clean = pathname.replace(/\/+$/, '') || '/';
  if (exact) return clean === path;
  return clean === path || clean.startsWith(`${path}/`);
}

export function initialGroupOpen(collapse: NavCollapse, childActive: boolean): boolean {
  return collapse !== 'closed' || childActive;
}
