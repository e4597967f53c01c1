import { COUNTRIES } from '@portal/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * The Country field of the sign-up and profile forms: the contract's list behind a "Select country"
 * placeholder. A `saved` country the list lacks (stored before the list existed) is offered too, so
 * the select never shows a wrong value.
 */
export function CountrySelect({
  id,
  error,
  registration,
  saved,
  placeholderDisabled = false,
}: {
  id: string;
  error?: string;
  registration: UseFormRegisterReturn;
  saved?: string;
  /** true where the placeholder may not be chosen again (sign-up) */
  placeholderDisabled?: boolean;
}) {
  const unlisted = saved && !COUNTRIES.some((c) => c.name === saved) ? saved : undefined;
  return (
    <FormField id={id} label="Country" error={error}>
      <NativeSelect {...fieldProps(id, error)} autoComplete="country-name" {...registration}>
        <option value="" disabled={placeholderDisabled}>
          Select country
        </option>
        {unlisted && <option value={unlisted}>{unlisted}</option>}
        {COUNTRIES.map((c) => (
          <option key={c.code} value={c.name}>
            {c.name}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
