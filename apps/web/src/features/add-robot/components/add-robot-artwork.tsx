import { cn } from '@/lib/utils';

/**
 * A model's picture. The artwork carries its own pale tile, which glares on a dark card, and an
 * <img> cannot see the page's theme; so in dark theme the picture is dimmed (the tile becomes a quiet
 * mid-tone) and its contrast lifted again so the robot's outlines still stand out. The Robot
 * Manager's cards use the same treatment.
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
        'aspect-square w-full max-w-36 rounded-lg object-contain dark:brightness-[0.6] dark:contrast-[1.15]',
        className,
      )}
    />
  );
}
