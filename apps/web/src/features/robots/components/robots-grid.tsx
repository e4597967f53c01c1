import * as React from 'react';
import type { RobotCardModel } from '../robots-cards';
import { RobotCard } from './robots-card';

/**
 * A titled grid of robot cards: 1 to 5 columns by the room the grid has (spec/001 §2). Memoised:
 * it renders again only when its cards (or title) change.
 */
export const RobotsGrid = React.memo(function RobotsGrid({
  id,
  title,
  cards,
  emptyText,
  eager = 0,
}: {
  id: string;
  /**
   * How many cards load their picture at once rather than when scrolled to: the first row of the
   * first grid holds the page's largest image, which must not wait (Lighthouse's LCP).
   */
  eager?: number;
  title: string;
  cards: readonly RobotCardModel[];
  emptyText: string;
}) {
  return (
    <section aria-labelledby={id} className="@container flex flex-col gap-3">
      <h2 id={id} className="text-sm font-semibold tracking-wider text-muted-foreground">
        {title}
      </h2>
      {cards.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 @md:grid-cols-2 @2xl:grid-cols-3 @4xl:grid-cols-4 @6xl:grid-cols-5">
          {cards.map((card, index) => (
            <li key={card.key} className="min-w-0">
              <RobotCard card={card} eager={index < eager} first={eager > 0 && index === 0} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});
