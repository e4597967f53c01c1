import { describe, expect, it } from 'vitest';
import { collapseCrumbs, crumbsFromPath, formatSegment } from './app-shell-breadcrumb-segments';

describe('formatSegment', () => {
  it.each([
    { segment: 'dashboard', expected: 'Dashboard' },
    { segment: 'flexible_licenses', expected: 'Flexible Licenses' },
    { segment: 'privacy-policy', expected: 'Privacy-policy' },
    { segment: 'a__b_', expected: 'A B' },
    { segment: 'faq', expected: 'Faq' },
    { segment: 'robot%20arm', expected: 'Robot Arm' },
    { segment: '50%', expected: '50%' },
    { segment: 'UPPER_case', expected: 'UPPER Case' },
    { segment: 'r2d2', expected: 'R2d2' },
  ])('$segment -> $expected', ({ segment, expected }) => {
    expect(formatSegment(segment)).toBe(expected);
  });
});

describe('crumbsFromPath', () => {
  it.each([
    { path: '/', expected: [] },
    { path: '/dashboard', expected: [{ label: 'Dashboard', href: '/dashboard' }] },
    {
      path: '/dashboard/subscriptions/flexible_licenses',
      expected: [
        { label: 'Dashboard', href: '/dashboard' },
        { label: 'Subscriptions', href: '/dashboard/subscriptions' },
        { label: 'Flexible Licenses', href: '/dashboard/subscriptions/flexible_licenses' },
      ],
    },
    {
      path: '/dashboard//user/profile/',
      expected: [
        { label: 'Dashboard', href: '/dashboard' },
        { label: 'User', href: '/dashboard/user' },
        { label: 'Profile', href: '/dashboard/user/profile' },
      ],
    },
    { path: '/dashboard/_', expected: [{ label: 'Dashboard', href: '/dashboard' }] },
  ])('$path', ({ path, expected }) => {
    expect(crumbsFromPath(path)).toEqual(expected);
  });
});

describe('collapseCrumbs', () => {
  it.each([
    { crumbs: [], expected: { first: null, middle: [], last: null } },
    { crumbs: ['a'], expected: { first: null, middle: [], last: 'a' } },
    { crumbs: ['a', 'b'], expected: { first: 'a', middle: [], last: 'b' } },
    { crumbs: ['a', 'b', 'c'], expected: { first: 'a', middle: ['b'], last: 'c' } },
    { crumbs: ['a', 'b', 'c', 'd'], expected: { first: 'a', middle: ['b', 'c'], last: 'd' } },
  ])('$crumbs', ({ crumbs, expected }) => {
    expect(collapseCrumbs(crumbs)).toEqual(expected);
  });
});
