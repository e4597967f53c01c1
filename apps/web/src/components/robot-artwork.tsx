import { cn } from '@/lib/utils';

/**
 * A robot's illustration on the theme's card colour: the SVGs draw no tile of their own and the
 * image has no background, so the card that holds it shows through in either theme (a background
 * here would be brightened with the drawing). In dark theme the drawing is brightened, since an
 * <img> cannot see the page's theme and its navy outlines would sink into a dark card.
 */
export function RobotArtwork({
  src,
  alt,
  size,
  className,
  lazy = false,
  priority = false,
}: {
  src: string;
  alt: string;
  /** the intrinsic size in CSS pixels; the class may show it smaller */
  size: number;
  className?: string;
  lazy?: boolean;
  /** the page's largest image: fetched first (fetchpriority high) */
  priority?: boolean;
}) {
  return (
    <img
      src={src}
      alt={alt}
      width={size}
      height={size}
      loading={lazy ? 'lazy' : undefined}
      fetchPriority={priority ? 'high' : undefined}
      className={cn('rounded-lg object-contain dark:brightness-[1.6]', className)}
    />
  );
}
