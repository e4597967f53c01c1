import { Link } from '@tanstack/react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatInstant, PERMISSION_LABELS, ROLE_LABELS, ROLE_SUMMARIES } from '../admin-text';
import type { StaffMe } from '../api/admin-me';
import { consoleLink, consoleNavFor } from './admin-frame';

/** /admin: who is signed in, what the role may do, and the screens it opens. */
export function AdminOverview({ me }: { me: StaffMe }) {
  const screens = consoleNavFor(me).filter((item) => item.to !== '/admin');
  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Back office</h1>
        <p className="text-muted-foreground">
          Signed in as {me.email || me.name}, {ROLE_LABELS[me.role].toLowerCase()}.
          {me.session_expires_at > 0 &&
            ` This staff session ends at ${formatInstant(me.session_expires_at)} at the latest.`}
        </p>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Your role: {ROLE_LABELS[me.role]}</CardTitle>
            <CardDescription>{ROLE_SUMMARIES[me.role]}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid list-disc gap-1 pl-5 text-sm" aria-label="What your role may do">
              {me.permissions.map((permission) => (
                <li key={permission}>{PERMISSION_LABELS[permission]}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Screens</CardTitle>
            <CardDescription>
              {screens.length
                ? 'The screens your role opens.'
                : 'Your role opens no console screen. Your role already applies to the calls you make.'}
            </CardDescription>
          </CardHeader>
          {screens.length > 0 && (
            <CardContent>
              <ul className="grid gap-2">
                {screens.map((item) => (
                  <li key={item.to}>
                    <Link {...consoleLink(item.to)} className="text-primary underline underline-offset-4">
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </CardContent>
          )}
        </Card>
      </div>
    </>
  );
}
