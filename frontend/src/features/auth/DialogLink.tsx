import { Button, type ButtonProps } from '@chakra-ui/react';

/** A link-looking button of the auth dialog that moves between its steps (no navigation of its own). */
export function DialogLink(props: Omit<ButtonProps, 'type' | 'variant'>) {
  return (
    <Button
      type="button"
      variant="plain"
      size="sm"
      h="auto"
      p="0"
      minW="0"
      color="brand.fg"
      fontWeight="semibold"
      textDecoration="underline"
      textUnderlineOffset="3px"
      {...props}
    />
  );
}
