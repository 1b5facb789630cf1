import { Checkbox, Field } from '@chakra-ui/react';

/** Sign-up's 18+ confirmation (docs/product.md: required, and the server stores when it was given). */
export const AGE_CONFIRMATION_LABEL = 'I confirm I am 18 or older';
/** The server's wording when the box is not ticked (AuthMessages.ageConfirmation). */
export const AGE_CONFIRMATION_REQUIRED = 'You must confirm that you are 18 or older';

interface AgeCheckboxProps {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  /** Shown below the box, and marks it invalid, when set. */
  error?: string | undefined;
  disabled?: boolean;
}

export function AgeCheckbox({ checked, onCheckedChange, error, disabled }: AgeCheckboxProps) {
  return (
    <Field.Root invalid={Boolean(error)} required disabled={disabled}>
      <Checkbox.Root
        name="age_confirmed"
        checked={checked}
        onCheckedChange={(details) => onCheckedChange(details.checked === true)}
        alignItems="flex-start"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control mt="0.5" />
        <Checkbox.Label fontWeight="normal">{AGE_CONFIRMATION_LABEL}</Checkbox.Label>
      </Checkbox.Root>
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
    </Field.Root>
  );
}
