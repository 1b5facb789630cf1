import { Alert, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { usePreviewOnly } from './useApiStatus';

/** The words of the preview note (AI_PROVIDER unset or `preview`: no AI renders anything). */
export const PREVIEW_NOTE = {
  title: 'Preview mode: no AI is configured on this server',
  description:
    'A generation here is a local preview: your photo beside the outfit and scene artwork, marked “Preview, not AI-generated”, ' +
    'not an AI try-on. It still uses credits. Real try-ons need whoever runs this server to set AI_PROVIDER to a vendor and its key ' +
    '(the README’s “With a real AI provider”).',
  inline: 'No AI is configured: Generate makes a labelled preview, not an AI try-on, and still uses credits.',
} as const;

/**
 * Above every dashboard screen while the server renders with the local preview (no AI): what a
 * result will be, before any credit is spent. Nothing while the mode is unknown or a vendor is set.
 */
export function PreviewModeBanner() {
  const previewOnly = usePreviewOnly();
  const titleId = useId();
  if (!previewOnly) return null;
  return (
    <Alert.Root
      status="info"
      role="note"
      aria-labelledby={titleId}
      data-preview-note=""
      mb={{ base: '6', md: '8' }}
      alignItems="flex-start"
    >
      <Alert.Indicator mt="0.5" />
      <Alert.Content>
        <Alert.Title id={titleId} fontWeight="semibold">
          {PREVIEW_NOTE.title}
        </Alert.Title>
        <Alert.Description>{PREVIEW_NOTE.description}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** Beside the Generate button: the same fact in one line (the button points at it with aria-describedby). */
export function PreviewModeLine({ id }: { id: string }) {
  return (
    <Text id={id} role="note" fontSize="sm" color="fg.muted" data-preview-note="">
      {PREVIEW_NOTE.inline}
    </Text>
  );
}
