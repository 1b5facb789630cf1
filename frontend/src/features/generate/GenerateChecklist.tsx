import { Box, HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { CheckIcon } from '../../components/icons';
import type { ChecklistItem } from './generate-checklist';

/** The id of a line of the checklist: the Generate button names the lines still to do (aria-describedby). */
export const checklistItemId = (prefix: string, item: Pick<ChecklistItem, 'key'>) => `${prefix}-${item.key}`;

/** A hollow circle: a line still to do. */
function TodoMark() {
  return <Box aria-hidden boxSize="4" flexShrink="0" mt="0.5" borderWidth="2px" borderColor="fg.muted" borderRadius="full" />;
}

/**
 * "Before you generate": each need of the Generate button and whether it is met, next to the
 * button (visible, not a tooltip). A line to do reads in the body's colour, a done one muted with a
 * check; a screen reader hears "done" or "to do" first.
 */
export function GenerateChecklist({
  items,
  idPrefix,
  headingId,
}: {
  items: readonly ChecklistItem[];
  idPrefix: string;
  headingId: string;
}) {
  const left = items.filter((item) => !item.done).length;
  return (
    <Stack gap="1.5" data-generate-checklist="">
      <Text id={headingId} fontSize="sm" fontWeight="semibold">
        {left === 0 ? 'Ready to generate' : 'Before you generate'}
      </Text>
      <Stack as="ul" listStyle="none" gap="1" aria-labelledby={headingId}>
        {items.map((item) => (
          <HStack
            as="li"
            key={item.key}
            align="flex-start"
            gap="2"
            fontSize="sm"
            color={item.done ? 'fg.muted' : 'fg'}
            data-done={item.done ? '' : undefined}
          >
            {item.done ? <CheckIcon color="green.700" mt="0.5" flexShrink="0" /> : <TodoMark />}
            <Text id={checklistItemId(idPrefix, item)} minW="0">
              <VisuallyHidden>{item.done ? 'Done: ' : 'To do: '}</VisuallyHidden>
              {item.text}
              {item.link ? (
                <>
                  {'. '}
                  <Link asChild color="brand.fg" fontWeight="medium">
                    <RouterLink to={item.link.to}>{item.link.label}</RouterLink>
                  </Link>
                </>
              ) : null}
            </Text>
          </HStack>
        ))}
      </Stack>
    </Stack>
  );
}
