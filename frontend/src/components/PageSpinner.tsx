import { Center, type CenterProps, Spinner, VisuallyHidden } from '@chakra-ui/react';

/** A centred spinner for a screen (or a part of one) whose data is on its way. */
export function PageSpinner({ label = 'Loading', ...props }: CenterProps & { label?: string }) {
  return (
    <Center role="status" aria-label={label} flex="1" py="16" {...props}>
      <Spinner size="lg" color="brand.solid" borderWidth="3px" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
