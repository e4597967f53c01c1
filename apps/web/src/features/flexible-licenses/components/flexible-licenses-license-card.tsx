import type { FlexibleLicenseCard } from '@portal/contract';
import { displayModel } from '@portal/contract';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { FLEX_TEXT } from '../flexible-licenses-text';

/** "Tiago Steel", "Artus Hand": how a card's model reads, in a label or an announcement. */
export function licenseLabel(card: Pick<FlexibleLicenseCard, 'modelName'>): string {
  const shown = displayModel(card.modelName);
  return shown.version ? `${shown.model} ${shown.version}` : shown.model;
}

/**
 * A flexible license card (spec/001 §2): image, model name, manufacturer, "Robot Details",
 * description, feature bullets and robot-type badges. `compact` is the form a slot shows.
 */
export function LicenseCardBody({ card, compact = false }: { card: FlexibleLicenseCard; compact?: boolean }) {
  const shown = displayModel(card.modelName);
  return (
    <div className={cn('flex min-w-0 gap-3', compact ? 'items-center' : 'items-start')}>
      <img
        src={card.img}
        alt=""
        width={compact ? 48 : 72}
        height={compact ? 48 : 72}
        draggable={false}
        className={cn('shrink-0 rounded-md object-contain dark:brightness-[1.6]', compact ? 'size-12' : 'size-18')}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="truncate font-semibold leading-tight" data-testid="license-model">
            {shown.model}
          </span>
          {shown.version && <Badge variant="secondary">{shown.version}</Badge>}
        </div>
        <span className="truncate text-sm text-muted-foreground">{card.manufacturer}</span>
        {!compact && (
          <>
            <span className="mt-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
              {FLEX_TEXT.robotDetails}
            </span>
            {card.description && <p className="text-sm">{card.description}</p>}
            <ul className="list-disc pl-4 text-sm text-muted-foreground">
              {card.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            {card.robotType.length > 0 && (
              <div className="mt-1 flex flex-wrap gap-1">
                {card.robotType.map((t) => (
                  <Badge key={t} variant="outline">
                    {t}
                  </Badge>
                ))}
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
