import { Link } from '@tanstack/react-router';
import { RobotArtwork } from '@/components/robot-artwork';
import { Badge } from '@/components/ui/badge';
import { ROBOT_NAME_FONT_MAX_PX, ROBOT_NAME_FONT_MIN_PX } from '@/config/constants';
import { useFitText } from '@/hooks/use-fit-text';
import { cn } from '@/lib/utils';
import type { RobotCardModel } from '../robots-cards';
import { LastSeen, UnusedNotice } from './robots-last-seen';
import { RobotStatus } from './robots-status';

export const PAIRING_CODE_LABEL = 'Pairing Code';
export const FLEX_BADGE = 'Flex';

function RobotName({ name }: { name: string }) {
  const ref = useFitText<HTMLParagraphElement>(name, { maxPx: ROBOT_NAME_FONT_MAX_PX, minPx: ROBOT_NAME_FONT_MIN_PX });
  return (
    <p
      ref={ref}
      className="overflow-hidden font-semibold leading-tight text-ellipsis whitespace-nowrap"
      style={{ fontSize: 36 }}
      title={name}
    >
      {name}
    </p>
  );
}

function CardBody({ card, eager, first }: { card: RobotCardModel; eager: boolean; first: boolean }) {
  return (
    <>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 text-lg leading-tight font-semibold">
            <span className="truncate">{card.model || 'Unknown model'}</span>
            {card.version && (
              <Badge variant="secondary" aria-label={`Version ${card.version}`}>
                {card.version}
              </Badge>
            )}
          </h3>
          <p className="truncate text-sm text-muted-foreground">{card.make}</p>
        </div>
        {card.isFlexible && <Badge variant="outline">{FLEX_BADGE}</Badge>}
      </div>
      <RobotArtwork
        src={card.image}
        alt={`${card.model || 'Robot'} illustration`}
        size={144}
        lazy={!eager}
        priority={first}
        className="mx-auto aspect-square w-full max-w-36"
      />
      {card.pairCode ? (
        <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
          <span className="text-muted-foreground">{PAIRING_CODE_LABEL}</span>
          <span className="font-mono text-base font-semibold tracking-widest" data-testid="pair-code">
            {card.pairCode}
          </span>
        </p>
      ) : (
        <div className="flex min-w-0 flex-col gap-1">
          <RobotName name={card.name || card.model} />
          <RobotStatus status={card.status} className="text-sm" />
          {card.robotId && <LastSeen ms={card.lastSeen} />}
        </div>
      )}
      <UnusedNotice use={card.use} />
    </>
  );
}

const cardClass =
  'flex h-full flex-col gap-3 rounded-xl border-2 bg-card p-4 text-card-foreground shadow-sm transition-colors';

/**
 * A robot card (spec/001 §2). Only the owner's cards with a robot are links to the manager page;
 * unpaired cards have a dashed border; shared cards are plain.
 */
export function RobotCard({
  card,
  eager = false,
  first = false,
}: {
  card: RobotCardModel;
  /** load the picture at once (the first row of the page) */
  eager?: boolean;
  /** the page's largest image */
  first?: boolean;
}) {
  const className = cn(cardClass, card.unpaired ? 'border-dashed' : 'border-solid');
  if (card.clickable) {
    return (
      <Link
        to="/dashboard/robot/manager/$robotID"
        params={{ robotID: card.robotId }}
        className={cn(
          className,
          'hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        )}
        data-testid="robot-card"
      >
        <CardBody card={card} eager={eager} first={first} />
      </Link>
    );
  }
  return (
    <div className={className} data-testid="robot-card" data-shared={card.shared || undefined}>
      <CardBody card={card} eager={eager} first={first} />
    </div>
  );
}
