import { Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import { CustomPoseMessages } from '@fitting-room/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import {
  appendPhrase,
  buildingBlocksQueryOptions,
  CUSTOM_POSE_CHECK_DELAY_MS,
  customPoseCheckQueryOptions,
  type CustomPoseNotUnderstood,
  replaceWord,
} from './custom-pose-help';

interface CustomPoseHelpProps {
  text: string;
  onTextChange(text: string): void;
  maxLength: number;
  disabled: boolean;
  /** What the last Generate's check did not understand (CUSTOM_POSE_NOT_UNDERSTOOD), until the text changes. */
  refused: CustomPoseNotUnderstood | undefined;
}

/** The text as typed, once typing has paused for CUSTOM_POSE_CHECK_DELAY_MS. */
function useSettled(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), CUSTOM_POSE_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

const chipStyles = {
  px: '2.5',
  py: '1',
  fontSize: 'xs',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'full',
  bg: 'bg.panel',
  cursor: 'pointer',
  transition: 'border-color 0.15s, background 0.15s',
  _hover: { borderColor: 'brand.emphasized', bg: 'brand.subtle' },
  _disabled: { cursor: 'not-allowed', opacity: 0.55 },
} as const;

/** The words not understood, each marked, with its close words as buttons that put it in the text. */
function NotUnderstood({
  details,
  onReplace,
  disabled,
}: {
  details: CustomPoseNotUnderstood;
  onReplace(word: string, suggestion: string): void;
  disabled: boolean;
}) {
  return (
    <Stack gap="1.5" data-custom-pose-not-understood="">
      {details.other_language ? <Text>{CustomPoseMessages.englishOnly} Describe the pose in everyday English words.</Text> : null}
      {details.words.map(({ word, suggestions }) => (
        <HStack key={word} gap="1.5" wrap="wrap" data-not-understood-word={word}>
          <Text>
            Not understood:{' '}
            <chakra.mark bg="orange.subtle" color="fg" px="1" borderRadius="sm" fontWeight="medium">
              {word}
            </chakra.mark>
            {suggestions.length > 0 ? '. Did you mean' : ''}
          </Text>
          {suggestions.map((suggestion) => (
            <Button
              key={suggestion}
              size="2xs"
              variant="outline"
              colorPalette="brand"
              disabled={disabled}
              aria-label={`Replace "${word}" with "${suggestion}"`}
              onClick={() => onReplace(word, suggestion)}
            >
              {suggestion}
            </Button>
          ))}
          {suggestions.length > 0 ? <Text>?</Text> : null}
        </HStack>
      ))}
      {details.characters.length > 0 ? (
        <Text>
          Please leave out{' '}
          {details.characters.map((c, i) => (
            <chakra.mark key={c} bg="orange.subtle" color="fg" px="1" borderRadius="sm" ms={i > 0 ? '1' : undefined}>
              {c}
            </chakra.mark>
          ))}
          .
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Under the custom pose: that custom poses are English-only for now, building blocks to click
 * (poses, places, light, mood, props), and, once typing pauses, the words the check did not
 * understand with "did you mean" buttons (announced politely to screen readers).
 */
export function CustomPoseHelp({ text, onTextChange, maxLength, disabled, refused }: CustomPoseHelpProps) {
  const liveId = useId();
  const blocks = useQuery(buildingBlocksQueryOptions);
  const current = text.trim();
  const settled = useSettled(current);
  const check = useQuery({ ...customPoseCheckQueryOptions(settled), enabled: settled !== '' });
  // only what was said about the text as it is now, not about what was typed before
  const fresh = settled === current ? check.data : undefined;
  const details = refused ?? (fresh && !fresh.understood ? fresh.not_understood : undefined);

  const replace = (word: string, suggestion: string) => onTextChange(replaceWord(text, word, suggestion));
  const add = (phrase: string, group: string) => {
    const next = appendPhrase(text, phrase, group, maxLength);
    if (next !== null) onTextChange(next);
  };

  return (
    <Stack gap="3" fontSize="sm">
      <Text fontSize="xs" color="fg.muted">
        Build it from a few of these, or type your own:
      </Text>
      {blocks.data ? (
        <Stack gap="2">
          {blocks.data.groups.map((group) => (
            <HStack
              key={group.id}
              role="group"
              aria-label={`Ideas for the ${group.label.toLowerCase()}`}
              gap="1.5"
              wrap="wrap"
              align="center"
            >
              <Text as="span" fontSize="xs" fontWeight="semibold" color="fg.muted" minW="12">
                {group.label}
              </Text>
              {group.phrases.map((phrase) => (
                <chakra.button
                  key={phrase}
                  type="button"
                  disabled={disabled}
                  aria-label={`Add "${phrase}"`}
                  onClick={() => add(phrase, group.id)}
                  data-building-block={phrase}
                  {...chipStyles}
                >
                  {phrase}
                </chakra.button>
              ))}
            </HStack>
          ))}
        </Stack>
      ) : null}
      <Stack id={liveId} role="status" aria-live="polite" gap="1" color="fg.warning">
        {details ? <NotUnderstood details={details} onReplace={replace} disabled={disabled} /> : null}
      </Stack>
    </Stack>
  );
}
