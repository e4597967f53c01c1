import { CircleCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import { type SupportSearch, supportFormDefaults } from '../utils/support-search';
import { SupportForm } from './support-form';
import { SupportRequests } from './support-requests';

export function SupportPage({ search }: { search: SupportSearch }) {
  const { user } = useAuth();
  const [ticketId, setTicketId] = React.useState<string>();
  const [round, setRound] = React.useState(0);
  const defaults = React.useMemo(() => supportFormDefaults(search), [search]);
  const heading = React.useRef<HTMLHeadingElement>(null);

  React.useEffect(() => {
    if (ticketId) heading.current?.focus();
  }, [ticketId]);

  if (!user) return null;
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Contact Support</h1>
        <p className="text-sm text-muted-foreground">
          Questions about your account, billing, a robot that is not listed, or a technical problem: we are here to
          help.
        </p>
      </div>
      {ticketId ? (
        <Card>
          <CardHeader>
            <CardTitle ref={heading} tabIndex={-1} className="flex items-center gap-2 outline-none">
              <CircleCheckIcon className="size-5 text-success" aria-hidden />
              Request sent
            </CardTitle>
            <CardDescription>
              Thank you. We have received your request and will reply to {user.email}. A confirmation email is on its
              way.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <div role="status" className="rounded-lg border bg-muted/50 p-4">
              <p className="text-sm text-muted-foreground">Your ticket id</p>
              <p className="font-mono text-xl font-semibold tracking-wider">{ticketId}</p>
              <p className="mt-1 text-sm text-muted-foreground">
                Please quote it if you contact us about this request.
              </p>
            </div>
          </CardContent>
          <CardFooter>
            <Button
              variant="outline"
              onClick={() => {
                setTicketId(undefined);
                setRound((r) => r + 1);
              }}
            >
              Send another request
            </Button>
          </CardFooter>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Send us a message</CardTitle>
            <CardDescription>All fields except the robot model are required.</CardDescription>
          </CardHeader>
          <CardContent>
            <SupportForm key={round} email={user.email} defaults={defaults} onSent={setTicketId} />
          </CardContent>
        </Card>
      )}
      <SupportRequests email={user.email} initialTicket={search.ticket} />
    </div>
  );
}
