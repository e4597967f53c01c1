import { createFileRoute } from '@tanstack/react-router';
import { AdminSupportTicket } from '@/features/admin/components/admin-support-ticket';
import { pageHead } from '@/lib/page-title';
import { ConsoleScreen } from '../-console-screen';

export const Route = createFileRoute('/admin/_console/support/$ticketId')({
  head: ({ params }) => pageHead(`Support request ${params.ticketId}`),
  component: TicketRoute,
});

function TicketRoute() {
  const { staff } = Route.useRouteContext();
  const { ticketId } = Route.useParams();
  return (
    <ConsoleScreen permission="support.answer">
      <AdminSupportTicket key={ticketId} ticketId={ticketId} me={staff} />
    </ConsoleScreen>
  );
}
