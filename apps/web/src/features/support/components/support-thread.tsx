import { zodResolver } from '@hookform/resolvers/zod';
import { SUPPORT_MESSAGE_MAX, type SupportMessage, supportMessageText } from '@portal/contract';
import { Loader2Icon, RefreshCwIcon, SendIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { ERROR_TOAST_MS } from '@/config/constants';
import { formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { useMySupportRequest, useReplyToMySupportRequestMutation } from '../api/my-support-requests';

const replyFields = z.object({ message: supportMessageText });
type ReplyFields = z.infer<typeof replyFields>;

/** One request's thread, oldest first, with the box to answer in it (which reopens the request). */
export function SupportThread({ email, ticketId }: { email: string; ticketId: string }) {
  const request = useMySupportRequest(email, ticketId);
  if (request.isError)
    return (
      <Alert variant="destructive">
        <AlertTitle>This request could not be loaded</AlertTitle>
        <AlertDescription className="flex flex-wrap items-center gap-3">
          Please try again.
          <Button variant="outline" size="sm" onClick={() => void request.refetch()}>
            <RefreshCwIcon aria-hidden />
            Try again
          </Button>
        </AlertDescription>
      </Alert>
    );
  if (!request.data)
    return (
      <div className="grid gap-3" role="status" aria-label="Loading the messages">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  return (
    <div className="grid gap-4">
      <ol className="grid gap-3" aria-label={`Messages of ${ticketId}`}>
        {request.data.thread.map((message, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a thread only grows at its end, so a message keeps its place
          <ThreadMessage key={i} message={message} />
        ))}
      </ol>
      <ReplyForm email={email} ticketId={ticketId} />
    </div>
  );
}

function ThreadMessage({ message }: { message: SupportMessage }) {
  const ours = message.author === 'staff';
  return (
    <li className={ours ? 'rounded-lg border border-primary/30 bg-primary/5 p-3' : 'rounded-lg border bg-muted/40 p-3'}>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">{ours ? 'Support team' : 'You'}</span>
        <time dateTime={new Date(message.at).toISOString()}>{formatDateTime(message.at)}</time>
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words text-sm">{message.body}</p>
    </li>
  );
}

function ReplyForm({ email, ticketId }: { email: string; ticketId: string }) {
  const mutation = useReplyToMySupportRequestMutation(email);
  const [sent, setSent] = React.useState(false);
  const {
    register,
    handleSubmit,
    watch,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ReplyFields>({ resolver: zodResolver(replyFields), defaultValues: { message: '' } });
  const id = `support-reply-${ticketId}`;
  const error = errors.message?.message;
  const length = watch('message')?.length ?? 0;

  const onSubmit = handleSubmit(async ({ message }) => {
    setSent(false);
    try {
      await mutation.mutateAsync({ ticketId, message });
      reset({ message: '' });
      setSent(true);
    } catch (err) {
      const description =
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred. Please try again.';
      toast.error('Failed to send your answer', { description, duration: ERROR_TOAST_MS });
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" aria-label={`Answer ${ticketId}`}>
      <FormField id={id} label="Your answer" error={error} hint={`${length} / ${SUPPORT_MESSAGE_MAX} characters`}>
        <Textarea
          {...fieldProps(id, error)}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          rows={4}
          placeholder="Add details or answer our question. Sending reopens the request."
          {...register('message')}
        />
      </FormField>
      <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        {/* Always present, so the announcement does not move the button. */}
        <p role="status" className="min-h-5 text-sm text-muted-foreground">
          {sent ? 'Answer sent. The request is open again.' : ''}
        </p>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
          Send answer
        </Button>
      </div>
    </form>
  );
}
