import { cn } from '@/lib/utils';
import { progressFraction } from './onboarding-state';

const SIZE = 44;
const STROKE = 4;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** `step` is zero-based; the label and the digits count from one. */
export function OnboardingProgressRing({
  step,
  steps,
  className,
}: {
  step: number;
  steps: number;
  className?: string;
}) {
  const offset = CIRCUMFERENCE * (1 - progressFraction(step, steps));
  return (
    <svg
      role="img"
      aria-label={`Step ${step + 1} of ${steps}`}
      width={SIZE}
      height={SIZE}
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      className={cn('shrink-0', className)}
    >
      <circle cx={SIZE / 2} cy={SIZE / 2} r={RADIUS} fill="none" strokeWidth={STROKE} className="stroke-muted" />
      <circle
        cx={SIZE / 2}
        cy={SIZE / 2}
        r={RADIUS}
        fill="none"
        strokeWidth={STROKE}
        strokeLinecap="round"
        strokeDasharray={CIRCUMFERENCE}
        strokeDashoffset={offset}
        transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
        className="stroke-primary transition-[stroke-dashoffset] duration-300"
      />
      <text
        x="50%"
        y="50%"
        dominantBaseline="central"
        textAnchor="middle"
        className="fill-foreground text-[11px] font-semibold"
      >
        {step + 1}/{steps}
      </text>
    </svg>
  );
}
