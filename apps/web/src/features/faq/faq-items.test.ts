import { describe, expect, it } from 'vitest';
import { FAQ_ITEMS, type FaqSegment, paragraphText } from './faq-items';

const segments = FAQ_ITEMS.flatMap((item) =>
  item.answer.flatMap((p): readonly FaqSegment[] => (typeof p === 'string' ? [p] : p)),
);
const links = segments.filter((s) => typeof s !== 'string');
const text = FAQ_ITEMS.flatMap((item) => item.answer.map(paragraphText)).join('\n');

describe('FAQ answers', () => {
  it('the Add Robots they mention is a link to it', () => {
    expect(links).toContainEqual({ text: 'Add Robots', page: 'add-robots' });
    expect(text).toContain('Open Add Robots, find your robot’s make and model');
  });

  it('the Subscription Dashboard they mention is a link to it', () => {
    expect(links).toContainEqual({ text: 'Subscription Dashboard', page: 'subscriptions' });
    expect(text).toContain('choose Upgrade Now on a plan');
    expect(text).toContain('choose Update Payment Info');
    expect(text).not.toContain('Plans cannot be changed in the portal yet');
  });

  it.each(['In Flexible Licenses', 'Flexible Licenses page'])('promise no page that does not exist yet: %s', (name) => {
    expect(text).not.toContain(name);
  });

  it('paragraphText joins a paragraph’s segments', () => {
    expect(paragraphText(['Open ', { text: 'Add Robots', page: 'add-robots' }, '.'])).toBe('Open Add Robots.');
    expect(paragraphText('Plain.')).toBe('Plain.');
  });
});
