import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render-screen';
import type { RobotCardModel } from '../robots-cards';
import { RobotsGrid } from './robots-grid';

const card = (n: number): RobotCardModel => ({
  key: `k${n}`,
  licenseId: `l${n}`,
  robotId: '',
  rawModel: 'Pepper',
  model: `Model${n}`,
  make: 'Aldebaran',
  image: '/images/robots/pepper.svg',
  isFlexible: false,
  pairCode: `CODE${n}`,
  name: '',
  status: 'Inactive',
  unpaired: true,
  shared: false,
  clickable: false,
  lastSeen: 0,
  use: { unused: false },
});

describe('RobotsGrid pictures: the first row at once, the rest when scrolled to', () => {
  it.each([
    [0, [true, true, true, true, true, true]],
    [4, [false, false, false, false, true, true]],
  ])('eager %i', async (eager, lazy) => {
    await renderScreen(
      <RobotsGrid id="g" title="MY ROBOTS (6)" cards={[0, 1, 2, 3, 4, 5].map(card)} emptyText="" eager={eager} />,
    );
    const images = screen.getAllByRole('img');
    expect(images.map((img) => img.getAttribute('loading') === 'lazy')).toEqual(lazy);
    expect(images.map((img) => img.getAttribute('fetchpriority'))).toEqual(
      images.map((_, i) => (eager > 0 && i === 0 ? 'high' : null)),
    );
  });
});
