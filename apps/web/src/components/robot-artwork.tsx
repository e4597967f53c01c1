import { cn } from '@/lib/utils';

/**
 * A robot's illustration. Each SVG draws its own pale tile behind the robot, which glares on a dark
 * card, and an <img> cannot see the page's theme. So in dark theme the whole picture is dimmed: the
 * tile becomes a quiet mid-tone that sits with the dark surfaces, and the robot's dark outlines keep
 * their contrast against it (brightness scales both, contrast lifts them apart again).
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
      className={cn('rounded-lg object-contain dark:brightness-[0.6] dark:contrast-[1.15]', className)}
    />
  );
}
