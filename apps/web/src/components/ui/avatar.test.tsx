import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Avatar, AvatarFallback, AvatarImage } from './avatar';

/** Images the test settles by hand: jsdom loads none. */
class FakeImage {
  static made: FakeImage[] = [];
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  src = '';
  referrerPolicy = '';
  complete = false;
  naturalWidth = 0;
  constructor() {
    FakeImage.made.push(this);
  }
}
beforeEach(() => {
  FakeImage.made = [];
  vi.stubGlobal('Image', FakeImage);
});
afterEach(() => vi.unstubAllGlobals());

function renderAvatar(src: string | undefined) {
  const view = render(
    <Avatar>
      <AvatarImage src={src} alt="" referrerPolicy="no-referrer" />
      <AvatarFallback>GH</AvatarFallback>
    </Avatar>,
  );
  const shown = () => ({
    image: view.container.querySelector('[data-slot="avatar-image"]')?.getAttribute('src') ?? null,
    fallback: view.container.querySelector('[data-slot="avatar-fallback"]')?.textContent ?? null,
  });
  return { view, shown };
}

describe('Avatar: the picture once loaded, the fallback until then and when it fails', () => {
  it.each([
    ['loads', 'onload', { image: 'https://avatars.example/a', fallback: null }],
    ['fails', 'onerror', { image: null, fallback: 'GH' }],
  ] as const)('an image that %s', (_name, event, after) => {
    const { shown } = renderAvatar('https://avatars.example/a');
    expect(shown()).toEqual({ image: null, fallback: 'GH' });
    const probe = FakeImage.made.at(-1) as FakeImage;
    expect(probe.src).toBe('https://avatars.example/a');
    expect(probe.referrerPolicy).toBe('no-referrer');
    act(() => probe[event]?.());
    expect(shown()).toEqual(after);
  });

  it('no address: the fallback, and nothing is fetched', () => {
    const { shown } = renderAvatar(undefined);
    expect(shown()).toEqual({ image: null, fallback: 'GH' });
    expect(FakeImage.made).toHaveLength(0);
  });

  it('a new address shows the fallback until the new picture loads; a stale load changes nothing', () => {
    const { view, shown } = renderAvatar('https://avatars.example/a');
    const first = FakeImage.made.at(-1) as FakeImage;
    act(() => first.onload?.());
    view.rerender(
      <Avatar>
        <AvatarImage src="https://avatars.example/b" alt="" />
        <AvatarFallback>GH</AvatarFallback>
      </Avatar>,
    );
    expect(shown()).toEqual({ image: null, fallback: 'GH' });
    act(() => first.onload?.());
    expect(shown()).toEqual({ image: null, fallback: 'GH' });
    act(() => (FakeImage.made.at(-1) as FakeImage).onload?.());
    expect(shown()).toEqual({ image: 'https://avatars.example/b', fallback: null });
  });
});
