import { describe, expect, it } from 'vitest';
import { initialGroupOpen, isNavGroup, isPathActive, type NavCollapse, PLATFORM_NAV } from './app-shell-nav';

describe('isPathActive', () => {
  it.each([
    { pathname: '/dashboard', path: '/dashboard', exact: true, expected: true },
    { pathname: '/dashboard/', path: '/dashboard', exact: true, expected: true },
    { pathname: '/dashboard/faq', path: '/dashboard', exact: true, expected: false },
    { pathname: '/dashboard/faq', path: '/dashboard', exact: false, expected: true },
    { pathname: '/dashboard/faqs', path: '/dashboard/faq', exact: false, expected: false },
    { pathname: '/dashboard/robot/add', path: '/dashboard/robot/add', exact: false, expected: true },
    {
      pathname: '/dashboard/subscriptions/manage/x',
      path: '/dashboard/subscriptions/manage',
      exact: false,
      expected: true,
    },
  ])('$pathname vs $path (exact $exact)', ({ pathname, path, exact, expected }) => {
    expect(isPathActive(pathname, path, exact)).toBe(expected);
  });
});

describe('initialGroupOpen', () => {
  it.each<{ collapse: NavCollapse; childActive: boolean; expected: boolean }>([
    { collapse: 'always', childActive: false, expected: true },
    { collapse: 'default', childActive: false, expected: true },
    { collapse: 'closed', childActive: false, expected: false },
    { collapse: 'closed', childActive: true, expected: true },
  ])('$collapse, child active $childActive', ({ collapse, childActive, expected }) => {
    expect(initialGroupOpen(collapse, childActive)).toBe(expected);
  });
});

describe('PLATFORM_NAV', () => {
  it('lists the spec menu in order', () => {
    const titles = PLATFORM_NAV.flatMap((e) => (isNavGroup(e) ? [e.title, ...e.items.map((i) => i.title)] : [e.title]));
    expect(titles).toEqual([
      'Dashboard',
      'Downloads',
      'Add Robots',
      'Subscriptions',
      'Subscription Dashboard',
      'Flexible Licenses',
      'FAQ',
    ]);
  });
});
