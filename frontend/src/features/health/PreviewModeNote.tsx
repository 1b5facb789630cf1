import { CloseButton, HStack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { usePreviewOnly } from './useApiStatus';

/**
 * The words of the preview notice (AI_PROVIDER unset or `preview`: no AI renders anything), in a
 * shopper's words: one sentence. How to set a vendor is the operator's business: the server's log
 * at start and the README say it, not the app.
 */
export const PREVIEW_NOTE = {
  text: 'Preview mode: results here are a quick mock-up, not AI, and they still use credits.',
  dismiss: 'Dismiss the preview notice',
} as const;

/** Where this browser remembers that the notice was dismissed. */
export const PREVIEW_NOTE_DISMISSED_KEY = 'fitting-room:preview-note-dismissed';

function readDismissed(): boolean {
  try {
    return window.localStorage.getItem(PREVIEW_NOTE_DISMISSED_KEY) === '1';
  } catch {
    return false; // storage refused (private mode): the notice shows, and closes for this page
  }
}

/**
 * Above every dashboard screen while the server renders with the local preview (no AI): what a
 * result will be, before any credit is spent. One line, small on a phone, and dismissible: this
 * browser remembers it (the panel's line beside Generate stays). Nothing while the mode is unknown
 * or a vendor is set.
 */
export function PreviewModeBanner() {
  const previewOnly = usePreviewOnly();
  const [dismissed, setDismissed] = useState(readDismissed);
  if (!previewOnly || dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      window.localStorage.setItem(PREVIEW_NOTE_DISMISSED_KEY, '1');
    } catch {
      /* not remembered: it shows again on the next visit */
    }
  };
  return (
    <HStack
      role="note"
      aria-label="Preview mode"
      data-preview-note=""
      gap="2"
      mb={{ base: '4', md: '6' }}
      ps={{ base: '3', md: '4' }}
      pe="1"
      py="1"
      borderRadius="lg"
      bg="blue.50"
      borderWidth="1px"
      borderColor="blue.200"
      color="blue.900"
      fontSize={{ base: 'xs', md: 'sm' }}
    >
      <Text flex="1" minW="0">
        {PREVIEW_NOTE.text}
      </Text>
      <CloseButton size="xs" aria-label={PREVIEW_NOTE.dismiss} title={PREVIEW_NOTE.dismiss} onClick={dismiss} />
    </HStack>
  );
}

/** Beside the Generate button: the same sentence (the button points at it with aria-describedby). */
export function PreviewModeLine({ id }: { id: string }) {
  return (
    <Text id={id} role="note" fontSize="sm" color="fg.muted" data-preview-note="">
      {PREVIEW_NOTE.text}
    </Text>
  );
}
