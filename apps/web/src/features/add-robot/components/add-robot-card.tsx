import { Link } from '@tanstack/react-router';
import { RobotArtwork } from '@/components/robot-artwork';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { robotImage } from '@/lib/robot-models';
import { ADD_ROBOT_TEXT } from '../add-robot-catalogue';
import type { AddRobotItem } from '../add-robot-products';
import { AddRobotPriceButton } from './add-robot-price-button';

const cardClass = 'flex h-full flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm';

/** One robot driver for sale: image, make, model and variant, the licence's terms and its price button. */
export function AddRobotCard({ item }: { item: AddRobotItem }) {
  return (
    <li className={cardClass} data-testid="add-robot-card">
      <RobotArtwork
        src={item.image}
        alt={`${item.modelLabel} illustration`}
        size={144}
        className="mx-auto aspect-square w-full max-w-36"
      />
      <div className="min-w-0">
        <p className="truncate text-sm text-muted-foreground">{item.make}</p>
        <h2 className="flex flex-wrap items-center gap-2 text-lg leading-tight font-semibold">
          <span className="truncate">{item.modelLabel}</span>
          {item.variant && (
            <Badge variant="secondary" aria-label={`Variant ${item.variant}`}>
              {item.variant}
            </Badge>
          )}
        </h2>
      </div>
      <div className="flex-1 text-sm">
        <p className="font-medium">{ADD_ROBOT_TEXT.license}</p>
        <ul className="text-muted-foreground">
          {ADD_ROBOT_TEXT.licenseLines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <AddRobotPriceButton item={item} />
    </li>
  );
}

/** The last card of a short page: a way to ask for a robot the catalogue does not list. */
export function AddRobotNotListedCard({ model }: { model?: string }) {
  return (
    <li className={`${cardClass} border-dashed`} data-testid="add-robot-not-listed">
      <RobotArtwork
        src={robotImage(null)}
        alt=""
        size={144}
        className="mx-auto aspect-square w-full max-w-36 opacity-80"
      />
      <h2 className="flex-1 text-lg leading-tight font-semibold">{ADD_ROBOT_TEXT.notListed}</h2>
      <Button asChild variant="outline" className="w-full">
        <Link to="/dashboard/support" search={{ topic: 'robot_not_listed', model: model || undefined }}>
          {ADD_ROBOT_TEXT.getInTouch}
        </Link>
      </Button>
    </li>
  );
}
