import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPageTitle, handPageTitleToReact } from './page-title';

describe('formatPageTitle', () => {
  it.each([
    { name: 'Profile', expected: 'Robot Portal | Profile' },
    { name: ' Privacy Policy ', expected: 'Robot Portal | Privacy Policy' },
    { name: '', expected: 'Robot Portal' },
    { name: null, expected: 'Robot Portal' },
    { name: undefined, expected: 'Robot Portal' },
  ])('$name -> $expected', ({ name, expected }) => {
    expect(formatPageTitle(name)).toBe(expected);
  });
});

describe('handPageTitleToReact (one <title> once the app draws)', () => {
  const titles = () => [...document.head.querySelectorAll('title')].map((t) => t.textContent);
  /** index.html's head, then the app drawn afresh (createRoot, as main.tsx does with a stored session). */
  function drawApp(handOver: boolean) {
    document.head.innerHTML = '<title>Robot Portal</title>';
    if (handOver) handPageTitleToReact(document.head);
    render(<title>Robot Portal | Loading...</title>);
  }
  afterEach(() => {
    cleanup();
    document.head.innerHTML = '';
  });

  it("React 19 leaves the page's <title> beside its own (the cause of two)", async () => {
    drawApp(false);
    expect(titles()).toEqual(['Robot Portal | Loading...', 'Robot Portal']);
  });

  it("the page's <title> goes once React's is in the head", async () => {
    drawApp(true);
    // The observer's callback runs as a microtask after the insertion.
    await act(async () => {});
    expect(titles()).toEqual(['Robot Portal | Loading...']);
    expect(document.title).toBe('Robot Portal | Loading...');
  });

  it('stays until then: the tab is never without a title', () => {
    document.head.innerHTML = '<title>Robot Portal</title>';
    handPageTitleToReact(document.head);
    document.head.append(document.createElement('meta'));
    expect(titles()).toEqual(['Robot Portal']);
  });
});
