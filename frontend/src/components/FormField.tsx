import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface FormFieldProps extends Omit<Field.RootProps, 'invalid' | 'required' | 'children'> {
  /** The label; a required field shows the required mark after it (and it joins the accessible name). */
  label: ReactNode;
  required?: boolean;
  /** Shown below the control, and marks the field invalid, when set. */
  error?: string | undefined;
  /** Shown below the control while there is no error. */
  helperText?: ReactNode;
  /** The control: an Input, an InputGroup, a Textarea or a NativeSelect, labelled by the field. */
  children: ReactNode;
}

/** A labelled form control with its error (or helper) text below: the field markup of every form of the app. */
export function FormField({ label, required = false, error, helperText, children, ...rootProps }: FormFieldProps) {
  return (
    <Field.Root required={required} invalid={Boolean(error)} {...rootProps}>
      <Field.Label>
        {label}
        {required ? (
          <>
            {' '}
            <Field.RequiredIndicator />
          </>
        ) : null}
      </Field.Label>
      {children}
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
    </Field.Root>
  );
}
