import {
  type MySupportRequestSummary,
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_STATUS_LABELS,
  type SupportStatus,
} from '@portal/contract';
import { RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/dates';
import { useMySupportRequests } from '../api/my-support-requests';
import { SupportThread } from './support-thread';

const STATUS_BADGE: Record<SupportStatus, 'secondary' | 'outline' | 'success' | 'default'> = {
  new: 'secondary',
  open: 'secondary',
  waiting: 'default',
  closed: 'outline',
};

/** "Your requests": the user's support requests, newest first; each opens to its thread and an answer box. */
export function SupportRequests({ email, initialTicket }: { email: string; initialTicket?: string | undefined }) {
  const requests = useMySupportRequests(email);
  const [open, setOpen] = React.useState<string | undefined>(initialTicket);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your requests</CardTitle>
        <CardDescription>
          Our answers appear here and by email. Answer in a request's thread to continue the conversation.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {requests.data ? (
          requests.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">You have not sent a support request yet.</p>
          ) : (
            // Several requests: the Accordion (ui/accordion.tsx), one open at a time; a closed one
            // renders no thread, so it fetches none.
            <Accordion
              type="single"
              collapsible
              value={open ?? ''}
              onValueChange={(next) => setOpen(next || undefined)}
            >
              <ul aria-label="Your support requests">
                {requests.data.map((request) => (
                  <li key={request.ticket_id}>
                    <AccordionItem value={request.ticket_id}>
                      <AccordionTrigger>
                        <RequestTitle request={request} />
                      </AccordionTrigger>
                      <AccordionContent>
                        <SupportThread email={email} ticketId={request.ticket_id} />
                      </AccordionContent>
                    </AccordionItem>
                  </li>
                ))}
              </ul>
            </Accordion>
          )
        ) : requests.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Your requests could not be loaded</AlertTitle>
            <AlertDescription className="flex flex-wrap items-center gap-3">
              Please try again.
              <Button variant="outline" size="sm" onClick={() => void requests.refetch()}>
                <RefreshCwIcon aria-hidden />
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        ) : (
          <div className="grid gap-3" role="status" aria-label="Loading your requests">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function RequestTitle({ request }: { request: MySupportRequestSummary }) {
  return (
    <span className="grid min-w-0 gap-1">
      <span className="break-words">{request.subject}</span>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs font-normal text-muted-foreground">
        <span className="font-mono">{request.ticket_id}</span>
        <Badge variant={STATUS_BADGE[request.status]}>{SUPPORT_STATUS_LABELS[request.status]}</Badge>
        <span>{SUPPORT_CATEGORY_LABELS[request.category]}</span>
        <span>
          Last message{' '}
          <time dateTime={new Date(request.last_message_at).toISOString()}>
            {formatDateTime(request.last_message_at)}
          </time>
        </span>
      </span>
    </span>
  );
}
