import { ClockPlusIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { BUY_TIME_TEXT } from '../dial-time-packages';

/** Buy More Time's button, shared by its stand-in and the dialog's trigger. */
export function BuyMoreTimeButton(props: React.ComponentProps<typeof Button>) {
  return (
    <Button {...props}>
      <ClockPlusIcon aria-hidden />
      {BUY_TIME_TEXT.button}
    </Button>
  );
}
