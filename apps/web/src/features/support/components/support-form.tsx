import { zodResolver } from '@hookform/resolvers/zod';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_MESSAGE_MAX,
  type SupportRequestFields,
  supportRequestFields,
} from '@portal/contract';
import { Loader2Icon, SendIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { ERROR_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { useSubmitSupportRequestMutation } from '../api/submit-support-request';

export function SupportForm({
  email,
  defaults,
  onSent,
}: {
  email: string;
  defaults: SupportRequestFields;
  onSent: (ticketId: string) => void;
}) {
  const mutation = useSubmitSupportRequestMutation();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<SupportRequestFields>({
    resolver: zodResolver(supportRequestFields),
    defaultValues: defaults,
  });
  const messageLength = watch('message')?.length ?? 0;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync({ email, request: values });
      onSent(res.ticket_id);
    } catch (err) {
      const description =
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred. Please try again.';
      toast.error('Failed to send support request', { description, duration: ERROR_TOAST_MS });
    }
  });

  const messageError = errors.message?.message;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField id="support-category" label="Topic" error={errors.category?.message}>
          <NativeSelect {...fieldProps('support-category', errors.category?.message)} {...register('category')}>
            {SUPPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {SUPPORT_CATEGORY_LABELS[c]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="support-robot-model" label="Robot model (optional)" error={errors.robot_model?.message}>
          <Input
            {...fieldProps('support-robot-model', errors.robot_model?.message)}
            placeholder="e.g. Unitree Go2"
            {...register('robot_model')}
          />
        </FormField>
      </div>
      <FormField id="support-subject" label="Subject" error={errors.subject?.message}>
        <Input {...fieldProps('support-subject', errors.subject?.message)} {...register('subject')} />
      </FormField>
      <FormField
        id="support-message"
        label="Message"
        error={messageError}
        hint={`${messageLength} / ${SUPPORT_MESSAGE_MAX} characters`}
      >
        <Textarea
          {...fieldProps('support-message', messageError)}
          aria-describedby={messageError ? 'support-message-error' : 'support-message-hint'}
          rows={8}
          placeholder="Tell us what you need help with. For a robot that is not listed, include its make, model and how it connects."
          {...register('message')}
        />
      </FormField>
      <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          We reply to <span className="font-medium text-foreground">{email}</span>.
        </p>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
          Send request
        </Button>
      </div>
    </form>
  );
}
