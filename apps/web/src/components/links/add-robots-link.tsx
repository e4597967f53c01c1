import { Link } from '@tanstack/react-router';
import type * as React from 'react';

/** Where Add Robots lives (spec/001): the page where a customer buys a license for another robot model. */
export const ADD_ROBOTS_PATH = '/dashboard/robot/add';

/**
 * A link to Add Robots, for the texts that tell a customer to go there. The page's route is built
 * alongside these texts: until it is part of the app the URL is matched by the dashboard's
 * catch-all, and once it is, the same URL opens it, so the link needs no change.
 */
export function AddRobotsLink({
  children = 'Add Robots',
  className,
  onClick,
}: {
  children?: React.ReactNode;
  className?: string;
  onClick?: () => void;
}) {
  return (
    <Link
      to="/dashboard/$"
      params={{ _splat: ADD_ROBOTS_PATH.slice('/dashboard/'.length) }}
      className={className}
      onClick={onClick}
    >
      {children}
    </Link>
  );
}
