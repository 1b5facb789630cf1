import { Button, Input, type InputProps, InputGroup } from '@chakra-ui/react';
import { type Ref, useState } from 'react';

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  ref?: Ref<HTMLInputElement>;
}

/** A password field with a Show/Hide button (aria-pressed tells whether the password is shown). */
export function PasswordInput({ ref, ...props }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <InputGroup
      endElement={
        <Button
          type="button"
          variant="ghost"
          size="xs"
          me="-2"
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-pressed={shown}
          onClick={() => setShown((current) => !current)}
        >
          {shown ? 'Hide' : 'Show'}
        </Button>
      }
    >
      <Input ref={ref} type={shown ? 'text' : 'password'} {...props} />
    </InputGroup>
  );
}
