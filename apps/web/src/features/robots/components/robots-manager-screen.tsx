import { ChevronDownIcon, ClockIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { DIAL_PANEL_OPEN_MIN_WIDTH_PX, LOADER_DELAY_MS } from '@/config/constants';
import { env } from '@/config/env';
import { useDelayedFlag } from '@/hooks/use-delayed-flag';
import { useLiveRobotEvents } from '../hooks/robots-use-live-events';
import { useRobotManagerData } from '../hooks/robots-use-manager-data';
import type { PairingFilter } from '../robots-cards';
import { robotManagerView } from '../robots-cards';
import { RobotsErrorState } from './robots-error-state';
import { RobotsFilterBadges } from './robots-filter-badges';
import { RobotsGrid } from './robots-grid';
import { LiveIndicator } from './robots-last-seen';
import { RobotsWelcomeCard } from './robots-welcome-card';

export const ROBOT_MANAGER_TEXT = {
  title: 'Robot Manager',
  viewDialTime: 'View Dial Time',
  hideDialTime: 'Hide Dial Time',
  myRobots: (n: number) => `MY ROBOTS (${n})`,
  sharedRobots: (n: number) => `SHARED ROBOTS (${n})`,
  loading: 'Loading robots...',
} as const;

const FILTER_EMPTY: Record<PairingFilter, string> = {
  all: 'No robots here yet.',
  paired: 'No paired robots.',
  unpaired: 'No unpaired robots.',
};

function dialOpenByDefault(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(`(min-width: ${DIAL_PANEL_OPEN_MIN_WIDTH_PX}px)`).matches;
}

function RobotsLoader({ visible }: { visible: boolean }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-40 items-center justify-center">
      {visible && (
        <span className="flex items-center gap-3 text-muted-foreground">
          <span aria-hidden className="size-6 animate-spin rounded-full border-2 border-current border-t-transparent" />
          {ROBOT_MANAGER_TEXT.loading}
        </span>
      )}
    </div>
  );
}

export interface RobotManagerScreenProps {
  email: string;
  filter: PairingFilter;
  onFilterChange: (filter: PairingFilter) => void;
  /** the "Show onboarding guide" help icon, which the onboarding feature owns */
  helpButton?: React.ReactNode;
  /** the dial time panel, which the dial-time feature owns */
  dialTimePanel?: React.ReactNode;
}

/** /dashboard (spec/001 §2 Robot Manager). */
export function RobotManagerScreen({
  email,
  filter,
  onFilterChange,
  helpButton,
  dialTimePanel,
}: RobotManagerScreenProps) {
  // The live stream keeps the cards fresh; the spec's polling only while it is down (docs/decisions/031).
  const live = useLiveRobotEvents(email);
  const data = useRobotManagerData(email, { poll: live !== 'open' && env.robotsPolling });
  const [dialOpen, setDialOpen] = React.useState(dialOpenByDefault);
  const showLoader = useDelayedFlag(data.status === 'pending', LOADER_DELAY_MS);
  // The same arrays while the cards and the filter are: the grids then skip the screen's other
  // renders (the live stream opening, the loader's flag), which would render every card again.
  const mine = data.status === 'success' ? data.mine : undefined;
  const shared = data.status === 'success' ? data.shared : undefined;
  const view = React.useMemo(
    () => (mine && shared ? robotManagerView(mine, shared, filter) : undefined),
    [mine, shared, filter],
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-center gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{ROBOT_MANAGER_TEXT.title}</h1>
        {helpButton}
        <LiveIndicator state={live} />
      </div>

      <Collapsible open={dialOpen} onOpenChange={setDialOpen} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          {view && !view.empty ? <RobotsFilterBadges value={filter} onChange={onFilterChange} /> : <span />}
          <CollapsibleTrigger asChild>
            <Button variant="outline" size="sm" className="group">
              <ClockIcon />
              {dialOpen ? ROBOT_MANAGER_TEXT.hideDialTime : ROBOT_MANAGER_TEXT.viewDialTime}
              <ChevronDownIcon className="transition-transform group-data-[state=open]:rotate-180" />
            </Button>
          </CollapsibleTrigger>
        </div>
        <CollapsibleContent>{dialTimePanel}</CollapsibleContent>
      </Collapsible>

      {data.status === 'pending' && <RobotsLoader visible={showLoader} />}
      {data.status === 'error' && <RobotsErrorState error={data.error} retry={data.retry} />}
      {view?.empty && <RobotsWelcomeCard />}
      {view && !view.empty && (
        <>
          <RobotsGrid
            id="my-robots"
            title={ROBOT_MANAGER_TEXT.myRobots(view.mine.length)}
            eager={4}
            cards={view.mine}
            emptyText={FILTER_EMPTY[filter]}
          />
          {shared && shared.length > 0 && (
            <RobotsGrid
              id="shared-robots"
              title={ROBOT_MANAGER_TEXT.sharedRobots(view.shared.length)}
              cards={view.shared}
              emptyText={FILTER_EMPTY[filter]}
            />
          )}
        </>
      )}
    </div>
  );
}
