import { cn } from '@/lib/utils';

/**
 * A model's picture. The artwork carries its own pale tile, which glares on a dark card, so in the
 * dark theme it is dimmed to sit with the card instead of lighting up the grid.
 */
export function AddRobotArtwork({ src, alt, className }: { src: string; alt: string; className?: string }) {
  return (
    <img
      src={src}
      alt={alt}
      width={144}
      height={144}
      loading="lazy"
      className={cn(
        'aspect-square w-full max-w-36 rounded-lg object-contain dark:brightness-[0.62] dark:saturate-[1.15]',
        className,
      )}
    />
  );
}
