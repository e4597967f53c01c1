import type { Permission } from '@portal/contract';
import { getRouteApi, Navigate } from '@tanstack/react-router';
import type * as React from 'react';

const consoleRoute = getRouteApi('/admin/_console');

/**
 * A console screen for the roles that may use it; any other goes back to the overview, which the
 * navigation already does not offer it (the server still decides every call). Checked as the screen
 * renders, not in a beforeLoad, which would sit in the entry every customer loads.
 */
export function ConsoleScreen({ permission, children }: { permission: Permission; children: React.ReactNode }) {
  const { staff } = consoleRoute.useRouteContext();
  return staff.permissions.includes(permission) ? children : <Navigate to="/admin" replace />;
}
