import { YEAR_BORN_MIN } from '@portal/contract';

/** Years of birth the sign-up form offers, newest first: the current year down to 1900. */
export function birthYearOptions(now: Date = new Date()): number[] {
  const years: number[] = [];
  for (let y = now.getUTCFullYear(); y >= YEAR_BORN_MIN; y--) years.push(y);
  return years;
}
